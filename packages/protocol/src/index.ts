export * from './room-config.js';
