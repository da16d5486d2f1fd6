export * from './client.js';
export * from './errors.js';
export * from './pg-error.js';
export * from './transaction.js';
export * from './migrate.js';
export * from './test-database.js';
export * from './table-seed.js';
export * from './ledger.js';
