// Failover (docs/architecture.md, Ownership and failover): a worker dies in the middle of a hand,
// at every street, and another continues the hand with the same deck (proven by the fairness
// verifier), the same actor and clock, table_seq growing, and every acked action in the final
// record. Hold'em and Stud, two humans on two gateways.
import { verifyReveal } from '@felt/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTION_OPS,
  eventually,
  leaseHolder,
  playOneAction,
  playStep,
  tableEpoch,
  workerById,
  type AckedAction,
} from './harness/failover-play.js';
import { FailoverRig } from './harness/failover-rig.js';
import type { Msg, TableClient } from './harness/table-client.js';

let rig: FailoverRig;

beforeAll(async () => {
  rig = await FailoverRig.start();
});

afterAll(async () => {
  await rig?.stop();
});

const cardsOf = (m: Msg): string[] => {
  if (m.type !== 'table_state') return [];
  const out: string[] = [...((m.board as string[] | undefined) ?? [])];
  for (const s of (m.seats as { cards?: (string | null)[] }[]) ?? []) for (const c of s.cards ?? []) if (c) out.push(c);
  return out;
};

/** Kills the table's owner (SIGKILL) and starts a replacement; resolves once another worker serves it. */
async function killOwner(tableId: string, watchers: readonly TableClient[]): Promise<{ from: string; to: string }> {
  const holder = await eventually('a lease holder', () => leaseHolder(rig.redis, rig.prefix, tableId));
  const owner = workerById(rig.cluster, holder.workerId);
  if (!owner) throw new Error(`lease holder ${holder.workerId} is not a live worker`);
  const seqBefore = watchers.map((c) => c.lastSeq);
  await owner.proc.kill('SIGKILL');
  const replacement = rig.cluster.addWorker();
  const next = await eventually(
    'another worker to take the table over',
    async () => {
      const h = await leaseHolder(rig.redis, rig.prefix, tableId);
      return h && h.workerId !== holder.workerId && h.epoch > holder.epoch ? h : null;
    },
    40_000,
  );
  // Each client got the new owner's snapshot: a resync after a short pause, table_seq growing.
  await Promise.all(
    watchers.map((c, i) => c.until(() => c.lastSeq > seqBefore[i]! && c.state, 30_000, 'the new owner’s snapshot')),
  );
  await replacement;
  return { from: holder.workerId, to: next.workerId };
}

async function resumeAtEveryStreet(config: Record<string, unknown>, streets: readonly string[]): Promise<void> {
  const { tableId, ann, both } = await rig.headsUp(config);

  // The first hand is dealt.
  await ann.until(() => ann.state?.hand_id !== undefined && ann.state.actor !== null && ann.state, 30_000, 'the deal');
  const handId = ann.state!.hand_id!;
  const commit = ann.received.find((m) => m.type === 'seed_commit' && m.hand_id === handId)!;
  const seen = new Set<string>();
  const acked: AckedAction[] = [];
  const takeovers: { from: string; to: string }[] = [];

  for (const street of streets) {
    await eventually(`street ${street}`, () => both.every((c) => c.state?.street === street && c.state.actor !== null));
    for (const c of both) for (const card of cardsOf(c.state as unknown as Msg)) seen.add(card);
    const actorBefore = ann.state!.actor;
    const deadlineBefore = ann.state!.deadline;
    const hero = both.find((c) => c.state!.hero?.turn_token !== undefined)!;
    const tokenBefore = hero.state!.hero!.turn_token;

    takeovers.push(await killOwner(tableId, both));

    // Same hand, same street, same actor, same turn (token and absolute deadline: the clock goes on).
    for (const c of both) {
      expect(c.state!.hand_id).toBe(handId);
      expect(c.state!.street).toBe(street);
      expect(c.state!.actor).toBe(actorBefore);
      expect(c.state!.deadline).toBe(deadlineBefore);
    }
    expect(hero.state!.hero!.turn_token).toBe(tokenBefore);
    for (const c of both) for (const card of cardsOf(c.state as unknown as Msg)) seen.add(card);

    // Play the street out.
    while (both.every((c) => c.state?.street === street && c.state.hand_id === handId)) {
      const a = await playOneAction(both);
      if (!a) break;
      acked.push(a);
      await eventually('the action applied', () =>
        both.every((c) => c.state!.actor !== a.seat || c.state!.street !== street || c.state!.hand_id !== handId),
      );
    }
  }
  // Finish the hand (nobody is killed any more).
  const revealed = () => ann.received.some((m) => m.type === 'seed_reveal' && m.hand_id === handId);
  while (!revealed()) {
    const a = await playStep(both, revealed, { actionTimeoutMs: 10_000, backOffOnRefusal: true });
    if (a) acked.push(a);
  }
  const reveal = ann.received.find((m) => m.type === 'seed_reveal' && m.hand_id === handId)!;
  for (const c of both)
    for (const m of c.received)
      if (m.type === 'table_state' && m.hand_id === handId) for (const card of cardsOf(m)) seen.add(card);

  // The same deck, from the commitment sent before the deal by the first owner, with each
  // player's own seed mixed in.
  for (const c of both) {
    const seat = c.state!.hero!.seat;
    const own = c.sentSeeds.get(handId);
    const result = verifyReveal(reveal.reveal, {
      expectedCommit: commit.seed_commit as string,
      ...(own !== undefined ? { ownSeed: { seat, seed: own } } : {}),
    });
    expect(result.ok, JSON.stringify(result)).toBe(true);
  }
  const dealt = new Set((reveal.reveal as { dealt: { card: string }[] }).dealt.map((d) => d.card));
  for (const card of seen) expect(dealt.has(card), `${card} was dealt from the committed deck`).toBe(true);

  // Every takeover was a new epoch at a different worker.
  expect(takeovers).toHaveLength(streets.length);
  for (const t of takeovers) expect(t.to).not.toBe(t.from);
  expect(await tableEpoch(rig.redis, rig.prefix, tableId)).toBeGreaterThanOrEqual(streets.length + 1);

  // No table_seq was issued twice: a snapshot seen twice (a reply beside the stream, a re-attach)
  // is the same snapshot. Every snapshot's hash is its own.
  for (const c of both) {
    const bySeq = new Map<number, string>();
    for (const m of c.received) {
      if (m.type !== 'table_state' || m.table_id !== tableId) continue;
      const seq = m.table_seq as number;
      const hash = m.state_hash as string;
      expect(bySeq.get(seq) ?? hash, `table_seq ${seq} reissued with another state`).toBe(hash);
      bySeq.set(seq, hash);
    }
    expect(c.hashMismatches).toBe(0);
    expect(c.invalidMessages).toEqual([]);
  }

  // Every acked action is in the hand's record, in order.
  const job = await eventually('the hand record', () => rig.records.job(handId), 20_000);
  const ops = (job.payload.hand.operations as unknown as { type: string; seat?: number }[]).filter((o) =>
    ACTION_OPS.has(o.type),
  );
  expect(ops.map((o) => `${o.seat}:${o.type}`)).toEqual(acked.map((a) => `${a.seat}:${a.action}`));
}

describe('resume mid-hand after the owner dies', () => {
  it("Hold'em: killed at preflop, flop, turn and river; the new owner continues with the same deck", async () => {
    await resumeAtEveryStreet({ game: 'holdem', limit: 'nl' }, ['preflop', 'flop', 'turn', 'river']);
    expect(rig.watch.staleAccepted).toBe(0);
  });

  it('Stud: killed at third to seventh street; the new owner continues with the same deck', async () => {
    await resumeAtEveryStreet({ game: 'stud', limit: 'fl' }, ['third', 'fourth', 'fifth', 'sixth', 'seventh']);
    expect(rig.watch.staleAccepted).toBe(0);
    expect(rig.watch.seqRegressions).toBe(0);
  });

  it('an owner killed and restarted at once under its own name (a StatefulSet pod) takes its tables back; clients resync and the hand goes on', async () => {
    const { tableId, ann, both } = await rig.headsUp({ game: 'holdem', limit: 'nl' });
    await ann.until(
      () => ann.state?.hand_id !== undefined && ann.state.actor !== null && ann.state,
      30_000,
      'the deal',
    );
    const handId = ann.state!.hand_id!;
    const acked: AckedAction[] = [(await playOneAction(both))!];
    await eventually('the action applied', () => both.every((c) => c.state!.actor !== acked[0]!.seat));
    const holder = (await leaseHolder(rig.redis, rig.prefix, tableId))!;
    const owner = workerById(rig.cluster, holder.workerId)!;
    const seqBefore = both.map((c) => c.lastSeq);
    const tokenBefore = both.find((c) => c.state!.hero?.turn_token !== undefined)!.state!.hero!.turn_token;

    // Back under the same id before its registry entry expires: the ring never loses it, only its
    // address changes. The gateways' attachments to the dead process must not pass for current.
    const killedAt = Date.now();
    await owner.proc.kill('SIGKILL');
    const reborn = await rig.cluster.addWorker(owner.id);
    const next = await eventually('the restarted worker to take the table back', async () => {
      const h = await leaseHolder(rig.redis, rig.prefix, tableId);
      return h && h.epoch > holder.epoch ? h : null;
    });
    // Back in time, the ring never lost it and it takes the table back. A restart slower than the
    // registry TTL (a loaded machine) lets the ring drop it first, and the other worker rightly takes
    // the table (the failover the other tests here cover); the rest must hold either way.
    const ringLostIt = rig.cluster.workers
      .filter((w) => w.id !== owner.id)
      .some((w) =>
        w.proc
          .jsonLogs()
          .some(
            (l) =>
              l.event === 'ring_changed' &&
              typeof l.time === 'number' &&
              l.time >= killedAt &&
              Array.isArray(l.members) &&
              !(l.members as string[]).includes(owner.id),
          ),
      );
    if (!ringLostIt) expect(next.workerId).toBe(reborn.id);
    await Promise.all(
      both.map((c, i) => c.until(() => c.lastSeq > seqBefore[i]! && c.state, 30_000, 'the restarted owner’s snapshot')),
    );
    for (const c of both) expect(c.state!.hand_id).toBe(handId);
    expect(both.find((c) => c.state!.hero?.turn_token !== undefined)!.state!.hero!.turn_token).toBe(tokenBefore);

    // The hand plays out at the restarted worker and its record holds every acked action.
    const revealed = () => ann.received.some((m) => m.type === 'seed_reveal' && m.hand_id === handId);
    while (!revealed()) {
      const a = await playStep(both, revealed, { actionTimeoutMs: 10_000, backOffOnRefusal: true });
      if (a?.handId === handId) acked.push(a);
    }
    const job = await eventually('the hand record', () => rig.records.job(handId), 20_000);
    const ops = (job.payload.hand.operations as unknown as { type: string; seat?: number }[]).filter((o) =>
      ACTION_OPS.has(o.type),
    );
    expect(ops.map((o) => `${o.seat}:${o.type}`)).toEqual(acked.map((a) => `${a.seat}:${a.action}`));
    expect(rig.watch.staleAccepted).toBe(0);
  });
});
