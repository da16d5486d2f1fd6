import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { PrismaClient, TxClient } from './client.js';
import { TransactionRetriesExhaustedError } from './errors.js';
import { isRetryableTransactionError } from './pg-error.js';

export interface TransactionOptions {
  /** Defaults to ReadCommitted: the ledger and the lobby take row locks where they need order. */
  readonly isolationLevel?: 'ReadCommitted' | 'RepeatableRead' | 'Serializable';
  /** Attempts in all, including the first. Default 8. */
  readonly maxAttempts?: number;
  /** Longest the callback may hold the transaction open. Default 15 s. */
  readonly timeoutMs?: number;
  /** Longest to wait for a pooled connection. Default 10 s (Prisma's 2 s is short under load). */
  readonly maxWaitMs?: number;
  /** Further errors worth a fresh attempt (e.g. a lost race on an idempotency key). */
  readonly retryOn?: (err: unknown) => boolean;
}

/**
 * Runs `fn` in one interactive transaction, again from the start on a serialization failure
 * (40001) or deadlock (40P01), with jittered backoff. `fn` must therefore be safe to re-run: it
 * gets a fresh transaction each time, and nothing it did in a failed attempt survives.
 */
export async function withTransaction<T>(
  prisma: PrismaClient,
  fn: (tx: TxClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 8;
  for (let attempt = 1; ; attempt++) {
    try {
      return await prisma.$transaction(fn, {
        isolationLevel: options.isolationLevel ?? 'ReadCommitted',
        timeout: options.timeoutMs ?? 15_000,
        maxWait: options.maxWaitMs ?? 10_000,
      });
    } catch (err) {
      const retryable = isRetryableTransactionError(err) || (options.retryOn?.(err) ?? false);
      if (!retryable) throw err;
      if (attempt >= maxAttempts) throw new TransactionRetriesExhaustedError(attempt, { cause: err });
      // Jitter spreads the retries of transactions that collided with each other.
      await sleep(Math.floor(Math.random() * 10 * attempt) + attempt);
    }
  }
}

/**
 * withTransaction on a plain pg pool, for the few hot statements written as SQL (money/hand-sql.ts):
 * BEGIN (read committed, as withTransaction), `fn`, COMMIT on one pooled connection; the whole of it
 * again on a serialization failure, a deadlock or `retryOn`; ROLLBACK on any error. Deferred
 * constraints are checked at COMMIT, so a refusal there rolls everything back too.
 */
export async function withPgTransaction<T>(
  pool: PgPool,
  fn: (client: pg.PoolClient) => Promise<T>,
  options: Pick<TransactionOptions, 'maxAttempts' | 'retryOn'> = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 8;
  for (let attempt = 1; ; attempt++) {
    const client = await (pool as pg.Pool).connect();
    let failure: unknown;
    let broken = false;
    // A connection the server ends (a restart, a terminated backend) errors here as well as in the
    // query that was running: without a listener that error would end the process.
    const lost = (): void => {
      broken = true;
    };
    client.on('error', lost);
    try {
      await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      failure = err;
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
    } finally {
      // A connection that could not even roll back is dropped rather than handed to the next caller.
      client.off('error', lost);
      client.release(broken);
    }
    const retryable = isRetryableTransactionError(failure) || (options.retryOn?.(failure) ?? false);
    if (!retryable) throw failure;
    if (attempt >= maxAttempts) throw new TransactionRetriesExhaustedError(attempt, { cause: failure });
    await sleep(Math.floor(Math.random() * 10 * attempt) + attempt);
  }
}

/**
 * A pg connection pool made by createPgPool. Only @felt/db looks inside it, so its users need no pg
 * types of their own.
 */
export interface PgPool {
  end(): Promise<void>;
}

/** A pg pool on the database, for withPgTransaction. Call `end()` when done. */
export function createPgPool(databaseUrl: string, options: { readonly max?: number } = {}): PgPool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    application_name: 'felt',
    // Connections are kept for a minute idle (pg's default is 10 s): opening one costs more CPU than
    // a batch of hands, and the persister's pool is small.
    idleTimeoutMillis: 60_000,
    ...(options.max !== undefined ? { max: options.max } : {}),
  });
  // An idle connection the server ends is dropped by the pool; the next transaction opens another.
  pool.on('error', () => undefined);
  return pool;
}
