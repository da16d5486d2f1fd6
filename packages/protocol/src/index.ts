export * from './room-config.js';
export * from './error-codes.js';
export * from './close-codes.js';
export * from './messages.js';
export * from './state-hash.js';
