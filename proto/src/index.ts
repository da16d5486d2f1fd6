export * from './gen/felt/table/v1/table.js';
export * from './tls.js';
