import type pg from 'pg';
import type { PrismaClient } from '../client.js';
import type { PgPool } from '../transaction.js';
import { pgErrorInfo } from '../pg-error.js';

/*
 * Hand history is partitioned by calendar month (UTC) of `ended_at`, with no default partition
 * (migration 20261231090000_hand_history_partitions): a hand whose month has no partition is refused.
 * So every writer makes sure of its hands' months first. The database function creates the month's
 * partitions and the next month's, so in steady state next month's exist a month ahead, created by
 * the first hand of this month, and no hand ever waits on the DDL at a month's turn.
 */

/** The months (YYYY-MM, UTC) whose partitions a database is known to have, per client or pool. */
const known = new WeakMap<object, Set<string>>();

/** `YYYY-MM` of a time, in UTC. */
export function handMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/**
 * Creates the partitions the hands ending at these times need, and the next month's, unless this
 * client already made sure of them. One Set lookup per hand in steady state; one statement per new
 * month.
 */
export async function ensureHandPartitions(db: PrismaClient | PgPool, endedAt: readonly Date[]): Promise<void> {
  let months = known.get(db);
  if (!months) known.set(db, (months = new Set()));
  for (const at of endedAt) {
    const month = handMonth(at);
    if (months.has(month)) continue;
    if ('$executeRaw' in db) await db.$executeRaw`SELECT felt_hand_partitions_ensure(${at}::timestamptz)`;
    else await (db as pg.Pool).query('SELECT felt_hand_partitions_ensure($1::timestamptz)', [at]);
    months.add(month);
    months.add(nextMonth(month));
  }
}

/**
 * After a write failed: if Postgres may have said a hand's month has no partition (a check
 * violation, 23514; someone dropped the partition after this client made sure of it), forget what
 * this client knew, so the retry makes sure again. A CHECK refusal costs only that one statement.
 */
export function forgetHandPartitionsOn(db: PrismaClient | PgPool, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  if (pgErrorInfo(err).sqlState === '23514' || /no partition of relation/.test(message)) known.delete(db);
}
