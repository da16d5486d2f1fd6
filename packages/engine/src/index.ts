export * from './cards.js';
export * from './eval/index.js';
export * from './fairness/index.js';
