// Failover (docs/architecture.md, Ownership and failover): split brain (the owner SIGSTOPped past
// its lease, another worker takes over, SIGCONT: the old owner's writes are refused and it stops
// serving), and a corrupt checkpoint: the hand in progress is voided, every stack back to its exact
// hand-start value, and the ledger sees a void.
import { roomEscrows } from '@felt/db';
import { redisKeys } from '@felt/platform';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from './harness/cluster.js';
import {
  ACTION_OPS,
  type CheckpointWatch,
  eventually,
  leaseHolder,
  playOneAction,
  playStep,
  workerById,
  type AckedAction,
} from './harness/failover-play.js';
import { FailoverRig } from './harness/failover-rig.js';
import type { HandRecords } from './harness/privacy.js';

let rig: FailoverRig;
let cluster: Cluster;
let redis: Redis;
let records: HandRecords;
let watch: CheckpointWatch;

beforeAll(async () => {
  rig = await FailoverRig.start();
  ({ cluster, redis, records, watch } = rig);
});

afterAll(async () => {
  await rig?.stop();
});

async function dealtTable(config: Record<string, unknown> = { game: 'holdem', limit: 'nl' }) {
  const table = await rig.headsUp(config, { dealt: true });
  return { ...table, handId: table.ann.state!.hand_id! };
}

describe('split brain and lost checkpoints', () => {
  it('an owner stopped past its lease is replaced; after SIGCONT its writes are refused and it stops serving', async () => {
    const { tableId, ann, bob, handId } = await dealtTable();
    const both = [ann, bob];
    const acked: AckedAction[] = [];
    const first = await playOneAction(both);
    acked.push(first!);

    const holder = (await leaseHolder(redis, cluster.prefix, tableId))!;
    const old = workerById(cluster, holder.workerId)!;
    const seqBefore = both.map((c) => c.lastSeq);
    process.kill(old.proc.pid, 'SIGSTOP');
    let resumed = false;
    try {
      // Past the lease and the registry TTL, another worker takes the table over with a new epoch.
      const next = await eventually(
        'a takeover',
        async () => {
          const h = await leaseHolder(redis, cluster.prefix, tableId);
          return h && h.workerId !== holder.workerId ? h : null;
        },
        30_000,
      );
      expect(next.epoch).toBeGreaterThan(holder.epoch);
      await Promise.all(both.map((c, i) => c.until(() => c.lastSeq > seqBefore[i]!, 30_000, 'the new owner')));
      // The hand goes on at the new owner.
      const a = await playOneAction(both);
      acked.push(a!);
      const seqAtNewOwner = JSON.parse((await redis.get(redisKeys(cluster.prefix).tableCheckpoint(tableId)))!) as {
        epoch: number;
        tableSeq: number;
      };
      expect(seqAtNewOwner.epoch).toBe(next.epoch);

      process.kill(old.proc.pid, 'SIGCONT');
      resumed = true;
      // The old owner notices at once that its lease is gone and drops the table.
      const lost = await eventually(
        'the old owner to stop serving the table',
        () =>
          old.proc
            .jsonLogs()
            .find(
              (l) =>
                (l.event === 'lease_lost' || l.event === 'stale_write_refused') &&
                l.tableId === tableId &&
                l.epoch === holder.epoch,
            ),
        15_000,
      );
      expect(['renew_refused', 'expired', 'stale_epoch', undefined]).toContain(lost.reason);
      // Nothing it held was written over the new owner's state.
      const now = JSON.parse((await redis.get(redisKeys(cluster.prefix).tableCheckpoint(tableId)))!) as {
        epoch: number;
        tableSeq: number;
      };
      expect(now.epoch).toBeGreaterThanOrEqual(next.epoch);
      expect(now.tableSeq).toBeGreaterThanOrEqual(seqAtNewOwner.tableSeq);
    } finally {
      if (!resumed) process.kill(old.proc.pid, 'SIGCONT');
    }

    // The hand finishes, every acked action in its record, in order; no stale write was accepted.
    const revealed = () => ann.received.some((m) => m.type === 'seed_reveal' && m.hand_id === handId);
    for (let i = 0; i < 40 && !revealed(); i++) {
      const a = await playStep(both, revealed, { actionTimeoutMs: 15_000, backOffOnRefusal: true });
      if (a?.handId === handId) acked.push(a);
    }
    const job = await eventually('the hand record', () => records.job(handId), 20_000);
    const ops = (job.payload.hand.operations as unknown as { type: string; seat?: number }[]).filter((o) =>
      ACTION_OPS.has(o.type),
    );
    expect(ops.map((o) => `${o.seat}:${o.type}`)).toEqual(acked.map((x) => `${x.seat}:${x.action}`));
    await watch.sample();
    expect(watch.staleAccepted).toBe(0);
    expect(watch.seqRegressions).toBe(0);
    for (const c of both) expect(c.hashMismatches).toBe(0);
  });

  it('a corrupt checkpoint voids the hand in progress: exact hand-start stacks, a log line, no result in the ledger', async () => {
    const { tableId, ann, bob, handId } = await dealtTable();
    const both = [ann, bob];
    // Chips go in: the blinds, and a call.
    await playOneAction(both);
    const startStacks = new Map(
      [...(await roomEscrows(cluster.db.prisma, tableId)).entries()].map(([u, b]) => [u, Number(b)] as const),
    );
    const committed = ann.state!.seats.filter((s) => s.user_id !== null).map((s) => s.stack);
    expect(committed.reduce((x, y) => x + y, 0)).toBeLessThan([...startStacks.values()].reduce((x, y) => x + y, 0));

    const holder = (await leaseHolder(redis, cluster.prefix, tableId))!;
    const old = workerById(cluster, holder.workerId)!;
    const seqBefore = both.map((c) => c.lastSeq);
    await redis.set(redisKeys(cluster.prefix).tableCheckpoint(tableId), '{"version":1,"tableId":"garbage');
    await old.proc.kill('SIGKILL');
    const replacement = cluster.addWorker();

    // The next owner voids the hand: each player sees a table without it, at the exact stacks of
    // the hand's start, with table_seq still growing.
    const fresh = await Promise.all(
      both.map((c, i) =>
        c.until(
          () => {
            const s = c.received.find(
              (m) => m.type === 'table_state' && (m.table_seq as number) > seqBefore[i]! && m.hand_id !== handId,
            );
            return s;
          },
          40_000,
          'the voided table',
        ),
      ),
    );
    for (const s of fresh) {
      for (const seat of (s.seats as { user_id: string | null; stack: number }[]).filter((x) => x.user_id)) {
        expect(seat.stack, `stack of ${seat.user_id}`).toBe(startStacks.get(seat.user_id!));
      }
    }
    const voided = await eventually('the void log line', () =>
      cluster.workers
        .flatMap((w) => w.proc.jsonLogs())
        .find((l) => l.event === 'hand_voided' && l.tableId === tableId && l.handId === handId),
    );
    expect(voided.reason).toBe('checkpoint_corrupt');
    expect(
      cluster.workers
        .flatMap((w) => w.proc.jsonLogs())
        .some((l) => l.event === 'checkpoint_corrupt' && l.tableId === tableId),
    ).toBe(true);
    // The ledger sees a void rather than a result: the hand's job is the void record, and escrows
    // are untouched.
    const job = (await eventually('the void record', () => records.job(handId), 20_000)) as unknown as {
      kind?: string;
      reason?: string;
    };
    expect(job.kind).toBe('voided');
    // Both players were told on the wire, before anything newer reached them: a client that
    // applies messages in table_seq order does not drop the void as stale.
    for (const c of [ann, bob]) {
      const at = await eventually('hand_voided at each client', () => {
        const k = c.received.findIndex((m) => m.type === 'hand_voided' && m.hand_id === handId);
        return k >= 0 ? k + 1 : null;
      });
      const voidSeq = c.received[at - 1]!.table_seq as number;
      const newer = c.received.slice(0, at - 1).filter((m) => typeof m.table_seq === 'number' && m.table_seq > voidSeq);
      expect(newer.map((m) => `${String(m.type)}@${String(m.table_seq)}`)).toEqual([]);
    }
    const after = await roomEscrows(cluster.db.prisma, tableId);
    for (const [u, b] of startStacks) expect(Number(after.get(u))).toBe(b);
    await replacement;
  });
});
