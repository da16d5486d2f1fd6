// The wire catalog: client frames and server messages of Protocol V2 (reference 003).
export * from './wire.js';
export * from './client-frames.js';
export * from './server-messages.js';
