export * from './errors.js';
export * from './payouts.js';
export * from './seating.js';
export * from './structure.js';
export * from './director.js';
