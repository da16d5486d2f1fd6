import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client.js';

export { Prisma, PrismaClient } from './generated/client.js';
export type * from './generated/models.js';
export * from './generated/enums.js';

/** A client, or the client handed to an interactive transaction's callback. */
export type Db = PrismaClient | TxClient;
/** The client handed to `prisma.$transaction(async (tx) => ...)`. */
export type TxClient = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export interface CreatePrismaOptions {
  /** Pool size (pg's default is 10). */
  readonly maxConnections?: number;
  /** How long opening a connection may take before it fails (pg's default: no limit). */
  readonly connectTimeoutMs?: number;
}

/** A PrismaClient on @prisma/adapter-pg (no native query engine). Call `$disconnect()` when done. */
export function createPrisma(databaseUrl: string, options: CreatePrismaOptions = {}): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    ...(options.maxConnections !== undefined ? { max: options.maxConnections } : {}),
    ...(options.connectTimeoutMs !== undefined ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
  });
  return new PrismaClient({ adapter });
}
