export * from './auth/session-token.js';
