import type { Redis } from 'ioredis';
import { expect } from 'vitest';
import { settleAndMeasure } from '../../scripts/chaos/checks.js';
import type { TableCrew } from '../sdk/crew.js';
import type { Cluster } from './cluster.js';
import type { HandRecords } from './privacy.js';

/**
 * What every fault test asks once the fault is over (settleAndMeasure): every client converged on the
 * owner's state, every acked action in its hand's record (and more than ten of them, so the check
 * checked something), the audit clean, no chip made or lost since `totalBefore`.
 */
export async function expectNothingLost(
  cluster: Cluster,
  redis: Redis,
  records: HandRecords,
  crew: TableCrew,
  totalBefore: bigint,
): Promise<void> {
  const measured = await settleAndMeasure(cluster, redis, records, crew, totalBefore);
  expect(measured.unconverged).toEqual([]);
  expect(measured.lost.problems).toEqual([]);
  expect(measured.lost.acked).toBeGreaterThan(10);
  expect(measured.audit).toBe('ok');
  expect(measured.chipsDelta).toBe(0n);
}

/** One line per member: session status, table_seq, phase, hand and seats, for a stalled table's report. */
export function describeCrew(crew: TableCrew): string {
  return crew.members
    .map((m) => {
      const st = m.session.state;
      const seats = st?.seats.map((x) => `${x.seat}:${x.status}`).join(' ') ?? '-';
      return `${m.name} ${m.session.status} seq=${st?.table_seq ?? '-'} phase=${st?.phase ?? '-'} hand=${st?.hand_id?.slice(0, 8) ?? '-'} seats=[${seats}]`;
    })
    .join('\n');
}

/**
 * Waits for `count` hands at the crew's table; if they do not come, fails with what a stall needs to
 * be read from CI's output alone: each member's view, the table's log lines since `since`, and `more`.
 */
export async function waitHandsOrReport(
  cluster: Cluster,
  crew: TableCrew,
  count: number,
  timeoutMs: number,
  since: number,
  more: () => string = () => '',
): Promise<void> {
  await crew.waitHands(count, timeoutMs).catch((err: unknown) => {
    throw new Error(
      [
        String(err),
        describeCrew(crew),
        '--- the table’s log lines',
        cluster.timeline(crew.tableId, { since: since - 2_000, limit: 150 }),
        // Apart, so that a process repeating one warning cannot push the table's own lines out.
        '--- warnings naming no table (the last 40)',
        cluster.timeline(crew.tableId, { since: since - 2_000, limit: 40, withGlobal: true, globalOnly: true }),
        more(),
      ].join('\n'),
    );
  });
}
