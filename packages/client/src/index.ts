export * from './fairness/index.js';
export * from './sdk/backoff.js';
export * from './sdk/connection.js';
export * from './sdk/emitter.js';
export * from './sdk/random.js';
export * from './sdk/socket.js';
export * from './sdk/timers.js';
export * from './lobby/lobby-client.js';
