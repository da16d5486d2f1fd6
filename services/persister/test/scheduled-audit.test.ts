// The scheduled money audit against a real Postgres and Redis: one replica per period runs it, every
// replica exports the cluster's last result, and a ledger tampered with behind its triggers shows up
// as violations on every replica's /metrics text.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createTestDatabase, fundHouseBankroll, type TestDatabase } from '@felt/db';
import { closeRedis, createLogger, createMetricsRegistry, createRedis, redisKeys, type Redis } from '@felt/platform';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom } from '../../../test/money/fixtures.js';
import { ScheduledAudit } from '../src/scheduled-audit.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `t${randomBytes(5).toString('hex')}:`;
let db: TestDatabase;
let redis: Redis;

beforeAll(async () => {
  db = await createTestDatabase();
  redis = createRedis(REDIS_URL, { name: 'scheduled-audit-test' });
  await fundHouseBankroll(db.prisma, 1_000n, 'scheduled-audit-test');
  await createRoom(db.prisma, [
    { name: 'a', buyIn: 150 },
    { name: 'b', buyIn: 180 },
  ]);
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await closeRedis(redis);
  await db.drop();
});

function replica(id: string, failed = 0) {
  const registry = createMetricsRegistry('persister');
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('persister', { level: 'info', destination: stream });
  const audit = new ScheduledAudit({
    prisma: db.prisma,
    redis,
    prefix,
    failedJobs: () => Promise.resolve(failed),
    everyMs: 60_000,
    logger,
    registry,
    instanceId: id,
  });
  const gauge = async (name: string): Promise<number> => {
    const m = new RegExp(`^${name}\\{service="persister"\\} (\\S+)$`, 'm').exec(await registry.metrics());
    return Number(m?.[1]);
  };
  return { audit, gauge, lines };
}

describe('scheduled money audit', () => {
  it('exports nothing-found-yet as 0 before the first run', async () => {
    const a = replica('a');
    expect(await a.gauge('felt_audit_violations')).toBe(0);
    expect(await a.gauge('felt_audit_last_run_timestamp_seconds')).toBe(0);
  });

  it('one replica runs a period’s audit; both export its result', async () => {
    const a = replica('a');
    const b = replica('b');
    const before = Math.floor(Date.now() / 1000);
    const [ra, rb] = await Promise.all([a.audit.turn(), b.audit.turn()]);
    // Exactly one took the period.
    expect([ra, rb].filter((r) => r !== null)).toHaveLength(1);
    expect((ra ?? rb)!.ok).toBe(true);
    expect(await redis.get(redisKeys(prefix).auditLock)).toMatch(/^[ab]$/);
    for (const r of [a, b]) {
      expect(await r.gauge('felt_audit_violations')).toBe(0);
      expect(await r.gauge('felt_audit_last_run_timestamp_seconds')).toBeGreaterThanOrEqual(before);
    }
    // The period is taken: a second turn in it runs nothing.
    expect(await a.audit.turn()).toBeNull();
  });

  it('a tampered ledger and failed hand jobs are violations, on every replica, and logged one by one', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query("SET LOCAL session_replication_role = 'replica'");
      await client.query(
        `UPDATE ledger_accounts SET balance = balance + 5 WHERE kind = 'wallet' AND key = (SELECT min(key) FROM ledger_accounts WHERE kind = 'wallet')`,
      );
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    const a = replica('a', 2);
    const b = replica('b');
    const report = await a.audit.run();
    expect(report.ok).toBe(false);
    expect(report.issues.length).toBeGreaterThanOrEqual(2);
    expect(await b.gauge('felt_audit_violations')).toBe(report.issues.length);
    expect(await a.gauge('felt_audit_violations')).toBe(report.issues.length);
    const logged = a.lines.map((l) => JSON.parse(l) as { event?: string; code?: string });
    expect(logged.filter((l) => l.event === 'audit_violation').map((l) => l.code)).toEqual(
      report.issues.map((i) => i.code),
    );
    expect(logged.find((l) => l.event === 'audit')).toMatchObject({ ok: false, violations: report.issues.length });
  });

  it('a schedule of 0 never runs', async () => {
    const registry = createMetricsRegistry('persister');
    const audit = new ScheduledAudit({
      prisma: db.prisma,
      redis,
      prefix: `${prefix}off:`,
      failedJobs: () => Promise.resolve(0),
      everyMs: 0,
      logger: createLogger('persister', { level: 'silent' }),
      registry,
    });
    audit.start();
    await audit.stop();
    expect(await redis.exists(redisKeys(`${prefix}off:`).auditLock)).toBe(0);
  });
});
