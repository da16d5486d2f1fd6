export * from './hand.js';
export * from './view.js';
export * from './participant.js';
