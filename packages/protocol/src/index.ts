export * from './room-config.js';
export * from './error-codes.js';
export * from './close-codes.js';
export * from './messages.js';
export * from './state-hash.js';
// The lobby's HTTP API and the hand history's operation log.
export * from './lobby-api.js';
export * from './lobby-feed.js';
export * from './hand-actions.js';
export * from './tournament-config.js';
