// The shared end-to-end harness: a real cluster of built services, a lobby client and a WebSocket
// test client. See test/cluster.e2e.test.ts for use.
export * from './cluster.js';
export * from './lobby-client.js';
export * from './service-process.js';
export * from './session.js';
export * from './table.js';
export * from './wait.js';
export * from './ws-client.js';
export * from './privacy.js';
export * from './table-client.js';
export * from './table-ops.js';
export * from './raw-socket.js';
export * from './frame-fuzz.js';
export * from './ws-fuzzer.js';
