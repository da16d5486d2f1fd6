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
