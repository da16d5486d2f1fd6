// The wire catalog: client frames and server messages of Protocol V2 (docs/protocol.md).
export * from './wire.js';
export * from './client-frames.js';
export * from './blind-frames.js';
export * from './server-messages.js';
