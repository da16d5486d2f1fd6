// Failover on a Redis Cluster (docs/dev/scale-out.md, step 2): the table's owner is SIGKILLed in the
// middle of a hand while every service runs on 3 masters with a replica each; another worker takes
// the lease on the table's slot (a higher epoch), resumes from the checkpoint there, and the hand ends
// with the committed deck, every acked action in it and no table_seq issued twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTION_OPS,
  eventually,
  leaseHolder,
  playOneAction,
  playToReveal,
  revealChecks,
  workerById,
  type AckedAction,
} from './harness/failover-play.js';
import { FailoverRig } from './harness/failover-rig.js';
import { PrivateRedisCluster } from './harness/private-redis-cluster.js';

let redis: PrivateRedisCluster;
let rig: FailoverRig;

beforeAll(async () => {
  redis = await PrivateRedisCluster.start({ masters: 3, replicasPerMaster: 1 });
  rig = await FailoverRig.start({}, redis.url);
}, 120_000);

afterAll(async () => {
  await rig?.stop();
  await redis?.stop();
});

describe('failover on a Redis Cluster', () => {
  it('a worker killed mid-hand: the next owner resumes the hand from the checkpoint on the slot', async () => {
    const { tableId, ann, both } = await rig.headsUp({ game: 'holdem', limit: 'nl' }, { dealt: true });
    const handId = ann.state!.hand_id!;
    const acked: AckedAction[] = [];
    const first = await playOneAction(both);
    expect(first).not.toBeNull();
    acked.push(first!);
    await eventually('the action applied', () => both.every((c) => c.state!.actor !== first!.seat));
    const before = { actor: ann.state!.actor, street: ann.state!.street, seq: both.map((c) => c.lastSeq) };

    const holder = await eventually('a lease holder', () => leaseHolder(rig.redis, rig.prefix, tableId));
    const owner = workerById(rig.cluster, holder.workerId)!;
    await owner.proc.kill('SIGKILL');
    await rig.cluster.addWorker();
    const next = await eventually(
      'another worker to take the table over',
      async () => {
        const h = await leaseHolder(rig.redis, rig.prefix, tableId);
        return h && h.workerId !== holder.workerId && h.epoch > holder.epoch ? h : null;
      },
      40_000,
    );
    expect(next.epoch).toBeGreaterThan(holder.epoch);
    await Promise.all(
      both.map((c, i) => c.until(() => c.lastSeq > before.seq[i]! && c.state, 30_000, 'the new owner’s snapshot')),
    );
    for (const c of both) {
      expect(c.state!.hand_id).toBe(handId);
      expect(c.state!.street).toBe(before.street);
      expect(c.state!.actor).toBe(before.actor);
    }

    await playToReveal(both, handId, acked);
    for (const check of revealChecks(both, handId)) expect(check.ok, check.detail).toBe(true);
    // Every acked action is in the hand's record, which the worker queued on the cluster, in order.
    const job = await eventually('the hand record', () => rig.records.job(handId), 20_000);
    const ops = (job.payload.hand.operations as unknown as { type: string; seat?: number }[]).filter((o) =>
      ACTION_OPS.has(o.type),
    );
    expect(ops.map((o) => `${o.seat}:${o.type}`)).toEqual(acked.map((a) => `${a.seat}:${a.action}`));
    // No table_seq was issued twice with different states.
    for (const c of both) {
      const bySeq = new Map<number, string>();
      for (const m of c.received) {
        if (m.type !== 'table_state' || m.table_id !== tableId) continue;
        const hash = m.state_hash as string;
        expect(bySeq.get(m.table_seq as number) ?? hash).toBe(hash);
        bySeq.set(m.table_seq as number, hash);
      }
    }
    expect(rig.watch.staleAccepted).toBe(0);
    expect(rig.watch.seqRegressions).toBe(0);
    expect(rig.watch.samples).toBeGreaterThan(0);
  }, 120_000);
});
