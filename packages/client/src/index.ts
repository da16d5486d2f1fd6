export * from './fairness/index.js';
