// The table actor over whole hands: bot-fill tables that play to the end, restores mid-hand, and
// hands voided after a lost or unreadable checkpoint.
import { describe, expect, it } from 'vitest';
import type { ResyncResponse, TableState } from '@felt/protocol';
import { completedHandJobSchema, voidedHandJobSchema, type VoidedHandJob } from '@felt/platform';
import { TableActor } from './table-actor.js';
import {
  createActor,
  flush,
  harness,
  pass,
  restoreFromCheckpoint,
  room,
  TABLE,
  type Harness,
} from '../../test/support/fakes.js';
import { A, actorState, B, C, dealFirstHand, lastState, twoPlayers } from '../../test/support/actor.js';

/** The harness with a hands sink that also takes voided-hand records (the BullMQ sink does). */
function voidHarness(): Harness & { voids: VoidedHandJob[] } {
  const base = harness();
  const voids: VoidedHandJob[] = [];
  const hands = Object.assign(base.hands, {
    voided: (job: VoidedHandJob) => {
      voids.push(structuredClone(job));
      return Promise.resolve();
    },
  });
  return { ...base, hands, deps: { ...base.deps, hands }, voids };
}

/** A table rebuilt from its room rows (Ann 300, Bob 150) after its checkpoint was lost mid-hand `lost`, at table_seq 40. */
function rebuiltAfterLoss(h: Harness, lost: string): TableActor {
  const seed = room([
    { userId: A, name: 'Ann', seat: 1, stack: 300 },
    { userId: B, name: 'Bob', seat: 2, stack: 150 },
  ]);
  h.seeds.rooms.set(TABLE, seed);
  return TableActor.create(TABLE, seed, 40, h.deps, lost);
}

describe('hands end to end in the actor', () => {
  it('a bot-fill table plays hands to the end, reveals the seed and enqueues a valid record for each', async () => {
    const h = harness();
    const actor = createActor(
      h,
      room([{ userId: A, name: 'Ann', seat: 1, stack: 200 }], { botFill: { mode: 'fill', targetPlayers: 3 } }),
    );
    await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 's1', userId: A });
    let answered = 0;
    for (let i = 0; i < 400 && h.hands.jobs.length < 3; i++) {
      h.time.advance(250);
      await flush();
      // Ann checks when she can and folds otherwise, so that her chips last.
      const turns = h.publisher.toUser(A).filter((m) => m.type === 'your_turn');
      if (turns.length > answered) {
        answered = turns.length;
        const t = turns.at(-1) as {
          hand_id: string;
          turn_token: string;
          valid_actions: { check: boolean; fold: boolean };
        };
        await actor.submit({
          kind: 'client',
          connectionId: 'ca',
          userId: A,
          frame: {
            type: 'action',
            table_id: TABLE,
            hand_id: t.hand_id,
            turn_token: t.turn_token,
            command_id: `auto-${answered}`,
            action: t.valid_actions.check ? 'check' : t.valid_actions.fold ? 'fold' : 'call',
          },
        });
      }
    }
    expect(h.hands.jobs.length).toBeGreaterThanOrEqual(3);
    for (const job of h.hands.jobs) {
      expect(completedHandJobSchema.parse(job)).toBeTruthy();
      expect(job.payload.seats.filter((s) => s.bot)).toHaveLength(2);
    }
    const reveals = h.publisher.toUser(A).filter((m) => m.type === 'seed_reveal');
    expect(reveals.length).toBeGreaterThanOrEqual(3);
    const state = actorState(h, A);
    expect(state.seats.filter((s) => s.bot)).toHaveLength(2);
  });

  it('a bot gives up its seat to a player on the waitlist at the next hand boundary, and no bot takes it back', async () => {
    const h = harness();
    const seed = room([{ userId: A, name: 'Ann', seat: 1, stack: 400 }], {
      seats: 2,
      botFill: { mode: 'fill', targetPlayers: 2 },
    });
    const actor = createActor(h, seed);
    await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 's1', userId: A });
    const bots = () => actorState(h, A).seats.filter((s) => s.bot).length;
    for (let i = 0; i < 200 && actorState(h, A).hand_id == null; i++) await pass(h, 250);
    expect(actorState(h, A).hand_id).toBeTruthy();
    expect(bots()).toBe(1);
    const handId = actorState(h, A).hand_id;

    // The lobby says a player waits for this full room; the table rereads the room mid-hand.
    h.seeds.rooms.set(TABLE, { ...seed, waitlisted: 1 });
    await actor.submit({ kind: 'refresh' });
    // Nothing changes mid-hand: the bot plays it out.
    expect(actorState(h, A).hand_id).toBe(handId);
    expect(bots()).toBe(1);
    // The clock acts for Ann; once the hand is over the bot leaves and no other bot is asked for.
    for (let i = 0; i < 400 && bots() > 0; i++) await pass(h, 1_000, 1_000);
    expect(bots()).toBe(0);
    await pass(h, 60_000, 1_000);
    expect(bots()).toBe(0);
    expect(actorState(h, A).seats.filter((s) => s.user_id !== null)).toHaveLength(1);

    // The line is empty again (the player went elsewhere): a bot keeps Ann company once more.
    h.seeds.rooms.set(TABLE, { ...seed, waitlisted: 0 });
    await actor.submit({ kind: 'refresh' });
    for (let i = 0; i < 60 && bots() === 0; i++) await pass(h, 1_000, 1_000);
    expect(bots()).toBe(1);
  });

  it('a table restored from its checkpoint mid-hand continues the same hand with the same deck', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    await dealFirstHand(h);
    const saved = h.checkpoints.saved.get(TABLE)!;
    const before = actorState(h, A);
    await actor.stop();
    const restored = await restoreFromCheckpoint(h);
    expect(restored.tableSeq).toBe(saved.tableSeq);
    const out = await restored.submit({ kind: 'attach', connectionId: 'ca2', streamId: 's9', userId: A });
    const snap = out.replies[0]!.message as TableState;
    expect(snap.hand_id).toBe(before.hand_id);
    expect(snap.hero?.cards).toEqual(before.hero?.cards);
    expect(snap.table_seq).toBeGreaterThan(before.table_seq);
  });
});

describe('voided hands', () => {
  it('a room closed mid-hand is never voided: the hand plays on and counts, then table_closed', async () => {
    const h = voidHarness();
    const actor = await twoPlayers(h);
    await dealFirstHand(h);
    const handId = actorState(h, A).hand_id!;
    expect(handId).toBeDefined();
    h.seeds.rooms.set(TABLE, { ...h.seeds.rooms.get(TABLE)!, status: 'closing' });
    await actor.submit({ kind: 'refresh' });
    // The host's close cancels nothing: the hand goes on, and nobody is told it was voided.
    expect(actor.snapshot().closing).toBe(true);
    expect(actorState(h, A).hand_id).toBe(handId);
    // Nobody acts: the clock acts for them, the hand ends by the rules, and only then the table closes.
    for (let i = 0; i < 40 && !actor.isClosed; i++) await pass(h, 16_000, 1_000);
    expect(actor.isClosed).toBe(true);
    for (const user of [A, B]) {
      const msgs = h.publisher.toUser(user);
      expect(msgs.some((m) => m.type === 'hand_voided')).toBe(false);
      const result = msgs.findIndex((m) => m.type === 'hand_result' && m.hand_id === handId);
      expect(result).toBeGreaterThan(-1);
      expect(msgs.findIndex((m) => m.type === 'table_closed')).toBeGreaterThan(result);
      // No second hand was announced after the close.
      expect(msgs.filter((m) => m.type === 'seed_commit')).toHaveLength(1);
    }
    expect(h.voids).toHaveLength(0);
    expect(h.hands.jobs.map((j) => [j.hand_id, j.hand_no])).toEqual([[handId, 1]]);
    expect(actor.snapshot().handNo).toBe(1);
  });

  it('a checkpoint lost mid-hand: the table from the room rows announces the void first, then the snapshot', async () => {
    const h = voidHarness();
    const lost = '11111111-2222-4333-8444-555555555555';
    const actor = rebuiltAfterLoss(h, lost);
    const out = await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 's1', userId: A });
    const msgs = h.publisher.toUser(A);
    expect(msgs[0]).toMatchObject({
      type: 'hand_voided',
      hand_id: lost,
      reason: 'checkpoint_lost',
      table_seq: 41,
      stacks: [
        { seat: 1, stack: 300 },
        { seat: 2, stack: 150 },
      ],
    });
    expect(msgs[1]?.type).toBe('table_state');
    // The answer carries both too, in the same order: it races the stream to the client.
    expect(out.replies.map((r) => [r.message.type, (r.message as { table_seq?: number }).table_seq])).toEqual([
      ['hand_voided', 41],
      ['table_state', msgs[1]!.table_seq],
    ]);
    // A resync replays it too (for a client that re-attached after the first command).
    const res = await actor.submit({ kind: 'resync', connectionId: 'ca', userId: A, fromTableSeq: 40 });
    expect((res.replies[0]!.message as ResyncResponse).replayed_events.map((e) => e.type)).toEqual(['hand_voided']);
    // Bob attaches after it went out (his connection was still on its way from the dead worker):
    // his stream is told again, ahead of his snapshot and in table_seq order.
    const bob = await actor.submit({ kind: 'attach', connectionId: 'cb', streamId: 's2', userId: B });
    const toBob = h.publisher.toUser(B);
    expect(toBob.map((m) => m.type)).toEqual(['hand_voided', 'table_state']);
    expect(toBob[0]).toMatchObject({ hand_id: lost, reason: 'checkpoint_lost' });
    expect(toBob[0]!.table_seq).toBeLessThan(toBob[1]!.table_seq);
    // The answer carries both, in the same order: it races the stream to the client.
    expect(bob.replies.map((r) => [r.message.type, (r.message as { table_seq?: number }).table_seq])).toEqual(
      toBob.map((m) => [m.type, m.table_seq]),
    );
    // A spectator attaching now gets it in the answer, ahead of the snapshot (the spectators'
    // stream never carried it); nothing extra is published.
    const published = h.publisher.all.length;
    const sam = await actor.submit({ kind: 'attach', connectionId: 'cs', streamId: 's3', userId: C, spectate: true });
    expect(sam.replies.map((r) => r.message.type)).toEqual(['hand_voided', 'table_state']);
    expect(sam.replies[0]!.message).toMatchObject({ hand_id: lost, table_seq: 41 });
    expect(h.publisher.all.slice(published).some((p) => p.message.type === 'hand_voided')).toBe(false);
    // Ann's stream carried it already: her reconnect is not told twice.
    const annBefore = h.publisher.toUser(A).length;
    await actor.submit({ kind: 'detach', connectionId: 'ca', userId: A });
    await actor.submit({ kind: 'attach', connectionId: 'ca2', streamId: 's1', userId: A });
    expect(
      h.publisher
        .toUser(A)
        .slice(annBefore)
        .filter((m) => m.type === 'hand_voided'),
    ).toEqual([]);
    expect(h.voids).toHaveLength(1);
    expect(voidedHandJobSchema.parse(h.voids[0])).toMatchObject({ hand_id: lost, reason: 'checkpoint_lost' });
    expect(h.voids[0]!.hand_no).toBeUndefined();
  });

  it('a lost-checkpoint void survives a failed first checkpoint: the next command still tells everyone', async () => {
    const h = voidHarness();
    const lost = '11111111-2222-4333-8444-555555555556';
    const actor = rebuiltAfterLoss(h, lost);
    h.checkpoints.fail = true;
    await expect(actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 's1', userId: A })).rejects.toThrow(
      /checkpoint/,
    );
    expect(h.publisher.toUser(A)).toEqual([]);
    h.checkpoints.fail = false;
    await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 's1', userId: A });
    expect(h.publisher.toUser(A).map((m) => m.type)).toEqual(['hand_voided', 'table_state']);
    expect(h.publisher.toUser(A)[0]).toMatchObject({ hand_id: lost, reason: 'checkpoint_lost' });
  });

  it('a checkpoint whose hand no longer replays: restored with the hand voided as unreadable', async () => {
    const h = voidHarness();
    const actor = await twoPlayers(h);
    await dealFirstHand(h);
    const handId = actorState(h, A).hand_id!;
    await actor.stop();
    const { checkpoint, events } = (await h.checkpoints.load(TABLE))!;
    const state = checkpoint.state as Parameters<typeof TableActor.restore>[0];
    const broken = {
      ...state,
      hand: { ...state.hand!, operations: [{ type: 'nonsense' }] },
    } as unknown as typeof state;
    const restored = TableActor.restore(broken, events, h.seeds.rooms.get(TABLE)!, h.deps);
    h.publisher.clear();
    await restored.submit({ kind: 'attach', connectionId: 'ca2', streamId: 's9', userId: A });
    const msgs = h.publisher.toUser(A);
    expect(msgs[0]).toMatchObject({ type: 'hand_voided', hand_id: handId, reason: 'unreadable' });
    expect(lastState(msgs).hand_id).toBeUndefined();
    expect(
      lastState(msgs)
        .seats.filter((s) => s.user_id !== null)
        .map((s) => s.stack),
    ).toEqual([200, 200]);
    expect(h.voids.map((v) => [v.hand_id, v.reason])).toEqual([[handId, 'unreadable']]);
  });
});
