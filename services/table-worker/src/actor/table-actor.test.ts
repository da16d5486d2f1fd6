import { describe, expect, it } from 'vitest';
import {
  serverMessageSchema,
  stateHash,
  tableStateSchema,
  type ResyncResponse,
  type TableMessage,
  type TableState,
} from '@felt/protocol';
import { voidedHandJobSchema, type VoidedHandJob } from '@felt/platform';
import { completedHandJobSchema } from '@felt/platform';
import { TableActor } from './table-actor.js';
import {
  createActor,
  flush,
  harness,
  pass,
  restoreFromCheckpoint,
  room,
  TABLE,
  uid,
  type Harness,
} from '../../test/support/fakes.js';

const A = uid(1);
const B = uid(2);
const C = uid(3);

function lastState(msgs: readonly TableMessage[]): TableState {
  const s = msgs.filter((m): m is TableState => m.type === 'table_state').at(-1);
  if (!s) throw new Error('no table_state');
  return s;
}

async function twoPlayers(h: Harness, config = {}) {
  const actor = createActor(
    h,
    room(
      [
        { userId: A, name: 'Ann', seat: 1, stack: 200 },
        { userId: B, name: 'Bob', seat: 2, stack: 200 },
      ],
      config,
    ),
  );
  await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 's1', userId: A });
  await actor.submit({ kind: 'attach', connectionId: 'cb', streamId: 's1', userId: B });
  return actor;
}

/** Runs the pause and the seed window, so the first hand is dealt. */
async function dealFirstHand(h: Harness): Promise<void> {
  h.time.advance(1_000);
  await flush();
  h.time.advance(1_500);
  await flush();
}

function actorState(h: Harness, user: string): TableState {
  return lastState(h.publisher.toUser(user));
}

describe('TableActor pipeline', () => {
  it('deals a hand after the pause and the seed window: commit first, own cards only, the turn to the actor', async () => {
    const h = harness();
    await twoPlayers(h);
    h.time.advance(1_000);
    await flush();
    const commit = h.publisher.toUser(A).find((m) => m.type === 'seed_commit');
    expect(commit).toBeDefined();
    expect(h.publisher.toUser(A).some((m) => m.type === 'hole_cards_dealt')).toBe(false);
    h.time.advance(1_500);
    await flush();

    const ann = actorState(h, A);
    const bob = actorState(h, B);
    expect(ann.hand_id).toBe((commit as { hand_id: string }).hand_id);
    expect(ann.phase).toBe('betting');
    // Each sees their own two cards and two hidden ones.
    expect(ann.seats[0]!.cards!.every((c) => c !== null)).toBe(true);
    expect(ann.seats[1]!.cards).toEqual([null, null]);
    expect(bob.seats[0]!.cards).toEqual([null, null]);
    const actorUser = ann.actor === 1 ? A : B;
    const other = actorUser === A ? B : A;
    const turns = h.publisher.toUser(actorUser).filter((m) => m.type === 'your_turn');
    expect(turns).toHaveLength(1);
    expect(h.publisher.toUser(other).some((m) => m.type === 'your_turn')).toBe(false);
    expect(actorState(h, actorUser).hero?.turn_token).toBeDefined();
    expect(actorState(h, other).hero?.turn_token).toBeUndefined();
    // Every message is a valid V2 message and every snapshot's hash is its own.
    for (const m of [...h.publisher.toUser(A), ...h.publisher.toUser(B)]) {
      expect(serverMessageSchema.safeParse(m).success, m.type).toBe(true);
      if (m.type === 'table_state') {
        const { state_hash, ...rest } = m;
        expect(stateHash(rest)).toBe(state_hash);
      }
    }
  });

  it('numbers every message, chains prev_table_seq per stream, and ends each batch with a snapshot', async () => {
    const h = harness();
    await twoPlayers(h);
    await dealFirstHand(h);
    for (const user of [A, B]) {
      const msgs = h.publisher.toUser(user);
      for (let i = 1; i < msgs.length; i++) {
        expect(msgs[i]!.table_seq).toBeGreaterThan(msgs[i - 1]!.table_seq);
        expect(msgs[i]!.prev_table_seq).toBe(msgs[i - 1]!.table_seq);
      }
      expect(msgs.at(-1)!.type).toBe('table_state');
    }
  });

  it('checkpoints before it publishes: a failed checkpoint publishes nothing and the command fails', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    const published = h.publisher.all.length;
    h.checkpoints.fail = true;
    await expect(actor.submit({ kind: 'detach', connectionId: 'cb', userId: B })).rejects.toThrow(/checkpoint/);
    expect(h.publisher.all.length).toBe(published);
    h.checkpoints.fail = false;
    const saved = h.checkpoints.saved.get(TABLE)!;
    expect(saved.tableSeq).toBe(actor.tableSeq);
  });
});

describe('actions: dedupe and refusals', () => {
  async function ready() {
    const h = harness();
    const actor = await twoPlayers(h);
    await dealFirstHand(h);
    const s = actorState(h, A);
    const actorUser = s.actor === 1 ? A : B;
    const otherUser = actorUser === A ? B : A;
    const turn = actorState(h, actorUser);
    return { h, actor, actorUser, otherUser, turn };
  }

  it('a duplicate command_id gets the original ack and is applied once', async () => {
    const { h, actor, actorUser, turn } = await ready();
    const frame = {
      type: 'action' as const,
      table_id: TABLE,
      hand_id: turn.hand_id!,
      turn_token: turn.hero!.turn_token!,
      command_id: 'k1',
      action: 'call' as const,
    };
    const conn = actorUser === A ? 'ca' : 'cb';
    const first = await actor.submit({ kind: 'client', connectionId: conn, userId: actorUser, frame });
    const ops = actor.snapshot().hand!.operations.length;
    const seq = actor.tableSeq;
    const again = await actor.submit({ kind: 'client', connectionId: conn, userId: actorUser, frame });
    expect(again.result).toEqual(first.result);
    expect(first.result).toEqual({ ok: true, atTableSeq: seq });
    expect(actor.snapshot().hand!.operations.length).toBe(ops);
    expect(actor.tableSeq).toBe(seq);
    expect(h.publisher.toUser(A).filter((m) => m.type === 'player_action')).toHaveLength(1);
  });

  it('refuses out-of-turn, stale token, forged hand, illegal and out-of-range actions with their codes, changing nothing', async () => {
    const { h, actor, actorUser, otherUser, turn } = await ready();
    const conn = (u: string) => (u === A ? 'ca' : 'cb');
    const base = {
      type: 'action' as const,
      table_id: TABLE,
      hand_id: turn.hand_id!,
      turn_token: turn.hero!.turn_token!,
    };
    const before = JSON.stringify(actor.snapshot().hand);
    const seq = actor.tableSeq;
    const published = h.publisher.all.length;
    const cases: [string, string, Record<string, unknown>, Record<string, unknown>][] = [
      [otherUser, 'not_your_turn', { action: 'call' }, {}],
      [actorUser, 'stale_turn_token', { action: 'call', turn_token: 'AAAAAAAAAAAAAAAAAAAA' }, {}],
      [actorUser, 'stale_hand', { action: 'call', hand_id: '11111111-1111-4111-8111-111111111111' }, {}],
      [actorUser, 'illegal_action', { action: 'check' }, { reason: 'cannot_check' }],
      [actorUser, 'invalid_amount', { action: 'raise', amount: 3 }, { min: 4, max: 200 }],
      [actorUser, 'invalid_amount', { action: 'raise' }, {}],
    ];
    let i = -1;
    for (const [user, code, patch, extra] of cases) {
      i++;
      const out = await actor.submit({
        kind: 'client',
        connectionId: conn(user),
        userId: user,
        frame: { ...base, command_id: `r${i}`, ...patch } as never,
      });
      expect(out.result, code).toMatchObject({ ok: false, code, ...extra });
    }
    expect(JSON.stringify(actor.snapshot().hand)).toBe(before);
    expect(actor.tableSeq).toBe(seq);
    expect(h.publisher.all.length).toBe(published);
    // A refusal is remembered too: the same command_id gets the same error again.
    const again = await actor.submit({
      kind: 'client',
      connectionId: conn(actorUser),
      userId: actorUser,
      frame: { ...base, command_id: 'r3', action: 'check' } as never,
    });
    expect(again.result).toMatchObject({ ok: false, code: 'illegal_action' });
  });

  it('a spectator cannot act: not_seated', async () => {
    const { actor, turn } = await ready();
    await actor.submit({ kind: 'attach', connectionId: 'cs', streamId: 's1', userId: C, spectate: true });
    const out = await actor.submit({
      kind: 'client',
      connectionId: 'cs',
      userId: C,
      frame: {
        type: 'action',
        table_id: TABLE,
        hand_id: turn.hand_id!,
        turn_token: turn.hero!.turn_token!,
        command_id: 'x',
        action: 'fold',
      },
    });
    expect(out.result).toMatchObject({ ok: false, code: 'not_seated' });
  });
});

describe('the clock', () => {
  it('checks when free and folds when facing a bet; three timed-out hands sit the player out; sit_in brings them back', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    await dealFirstHand(h);
    const handIds = new Set<string>();
    for (let hand = 0; hand < 6; hand++) {
      // Nobody acts: every decision is the clock's (10 s action + 5 s bank each).
      for (let k = 0; k < 4; k++) {
        h.time.advance(15_000);
        await flush();
      }
      h.time.advance(2_500);
      await flush();
      const s = actorState(h, A);
      if (s.hand_id) handIds.add(s.hand_id);
      if (s.seats.every((x) => x.status === 'sitting_out')) break;
    }
    const actions = h.publisher.toUser(A).filter((m) => m.type === 'player_action');
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((a) => (a as { timeout?: boolean }).timeout === true)).toBe(true);
    // Facing the big blind the small blind folds; nothing to call: a check.
    expect(actions.some((a) => (a as { action: string }).action === 'fold')).toBe(true);
    const final = actorState(h, A);
    expect(final.seats[0]!.status).toBe('sitting_out');
    expect(handIds.size).toBeGreaterThanOrEqual(3);
    const out = await actor.submit({
      kind: 'client',
      connectionId: 'ca',
      userId: A,
      frame: { type: 'sit_in', table_id: TABLE, command_id: 's1' },
    });
    expect(out.result).toMatchObject({ ok: true });
    expect(actorState(h, A).seats[0]!.status).toBe('active');
  });

  it('warns before the clock acts, spends the time bank, and marks the player away', async () => {
    const h = harness();
    await twoPlayers(h);
    await dealFirstHand(h);
    const s = actorState(h, A);
    const actorUser = s.actor === 1 ? A : B;
    const expires = s.deadline! + s.time_bank_ms!;
    h.time.advance(expires - h.time.now() - 2_000);
    await flush();
    const warn = h.publisher.toUser(A).find((m) => m.type === 'turn_warning');
    expect(warn).toMatchObject({ seat: s.actor, expires_at: expires });
    h.time.advance(2_000);
    await flush();
    const after = actorState(h, A);
    const seat = after.seats.find((x) => x.user_id === actorUser)!;
    expect(seat.status).toBe('away');
    expect(seat.time_bank_ms).toBe(0);
  });

  it('a reconnect during your own turn keeps the same turn_token and deadline', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    await dealFirstHand(h);
    const s = actorState(h, A);
    const actorUser = s.actor === 1 ? A : B;
    const before = actorState(h, actorUser);
    const conn = actorUser === A ? 'ca' : 'cb';
    h.time.advance(3_000);
    await actor.submit({ kind: 'detach', connectionId: conn, userId: actorUser });
    h.time.advance(1_000);
    const out = await actor.submit({ kind: 'attach', connectionId: 'again', streamId: 's2', userId: actorUser });
    const snap = out.replies[0]!.message as TableState;
    expect(snap.hero?.turn_token).toBe(before.hero?.turn_token);
    expect(snap.deadline).toBe(before.deadline);
    expect(snap.time_bank_ms).toBe(before.time_bank_ms);
  });
});

describe('resync and views', () => {
  it('replays only what the recipient could see, and its snapshot hashes like the last one streamed', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    await actor.submit({ kind: 'attach', connectionId: 'cs', streamId: 's1', userId: C, spectate: true });
    await dealFirstHand(h);
    const res = await actor.submit({ kind: 'resync', connectionId: 'ca', userId: A, fromTableSeq: 0 });
    const r = res.replies[0]!.message as ResyncResponse;
    expect(r.type).toBe('resync_response');
    expect(r.role).toBe('player');
    expect(r.to_table_seq).toBe(actor.tableSeq);
    const holes = r.replayed_events.filter((e) => e.type === 'hole_cards_dealt');
    expect(holes.length).toBeGreaterThan(0);
    expect(holes.every((e) => e.seat === 1)).toBe(true);
    expect(r.replayed_events.every((e) => e.prev_table_seq === undefined)).toBe(true);
    expect(r.snapshot.state_hash).toBe(actorState(h, A).state_hash);
    expect(tableStateSchema.parse(r.snapshot)).toEqual(r.snapshot);

    const spec = await actor.submit({ kind: 'resync', connectionId: 'cs', userId: C, fromTableSeq: 0 });
    const sr = spec.replies[0]!.message as { role: string; snapshot: TableState; replayed_events: { type: string }[] };
    expect(sr.role).toBe('spectator');
    expect(sr.snapshot.hero).toBeUndefined();
    expect(sr.replayed_events.some((e) => e.type === 'hole_cards_dealt' || e.type === 'your_turn')).toBe(false);
    expect(sr.snapshot.seats.flatMap((x) => x.cards ?? []).every((c) => c === null)).toBe(true);
    expect(sr.snapshot.state_hash).toBe(lastState(h.publisher.toSpectators()).state_hash);
  });
});

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

describe('voided hands (issue 8)', () => {
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

describe('heartbeats on a quiet table', () => {
  it('after heartbeatMs with nothing published, each connected stream is told the last table_seq it carried', async () => {
    const h = harness();
    const seed = room(
      [
        { userId: A, name: 'Ann', seat: 1, stack: 200 },
        { userId: B, name: 'Bob', seat: 2, stack: 200 },
      ],
      { startHand: { autoStart: false } },
    );
    h.seeds.rooms.set(TABLE, seed);
    const actor = TableActor.create(TABLE, seed, 0, { ...h.deps, heartbeatMs: 5_000 });
    await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 's1', userId: A });
    await actor.submit({ kind: 'attach', connectionId: 'cb', streamId: 's1', userId: B });
    await actor.submit({ kind: 'attach', connectionId: 'cs', streamId: 's1', userId: C, spectate: true });
    const lastOf = (msgs: readonly TableMessage[]) => msgs.at(-1)!.table_seq;
    await pass(h, 4_900, 100);
    expect(h.publisher.heartbeats(A)).toEqual([]);
    await pass(h, 200, 100);
    expect(h.publisher.heartbeats(A)).toEqual([
      { type: 'table_heartbeat', table_id: TABLE, table_seq: lastOf(h.publisher.toUser(A)) },
    ]);
    expect(h.publisher.heartbeats(B)).toEqual([
      { type: 'table_heartbeat', table_id: TABLE, table_seq: lastOf(h.publisher.toUser(B)) },
    ]);
    expect(h.publisher.heartbeats(null)).toEqual([
      { type: 'table_heartbeat', table_id: TABLE, table_seq: lastOf(h.publisher.toSpectators()) },
    ]);
    for (const m of h.publisher.all) expect(serverMessageSchema.safeParse(m.message).success).toBe(true);
    // A heartbeat takes no table_seq and changes nothing; the next comes heartbeatMs later.
    const seq = actor.tableSeq;
    await pass(h, 5_000, 100);
    expect(h.publisher.heartbeats(A)).toHaveLength(2);
    expect(actor.tableSeq).toBe(seq);
    // Activity pushes the next one back.
    await actor.submit({ kind: 'detach', connectionId: 'cs', userId: C });
    await pass(h, 4_000, 100);
    expect(h.publisher.heartbeats(A)).toHaveLength(2);
    // Nobody connected: no heartbeats.
    await actor.submit({ kind: 'detach', connectionId: 'ca', userId: A });
    await actor.submit({ kind: 'detach', connectionId: 'cb', userId: B });
    const before = h.publisher.all.length;
    await pass(h, 20_000, 500);
    expect(h.publisher.all.slice(before).filter((p) => p.message.type === 'table_heartbeat')).toEqual([]);
  });
});

describe('hostile traffic at one table', () => {
  const SPY = uid(7);

  it('a spectator’s refused commands are not remembered nor checkpointed; the history keeps members only', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    await actor.submit({ kind: 'attach', connectionId: 'cs', streamId: 's2', userId: SPY, spectate: true });
    const saves = h.checkpoints.saves;
    for (let i = 0; i < 50; i++) {
      const out = await actor.submit({
        kind: 'client',
        connectionId: 'cs',
        userId: SPY,
        frame: { type: 'sit_in', table_id: TABLE, command_id: `spam-${i}` },
      });
      expect(out.result?.ok).toBe(false);
    }
    expect(h.checkpoints.saves).toBe(saves);
    expect(Object.keys(actor.snapshot().commands)).not.toContain(SPY);
    // A member's refusal is remembered, so a retry gets the same answer.
    const again = async () =>
      actor.submit({
        kind: 'client',
        connectionId: 'ca',
        userId: A,
        frame: { type: 'start_hand', table_id: TABLE, command_id: 'm-1' },
      });
    const first = await again();
    expect((await again()).result).toEqual(first.result);
    expect(Object.keys(actor.snapshot().commands)).toEqual([A]);
  });

  it('admits spectators up to the table’s limit and refuses the next with limit_reached', async () => {
    const h = harness();
    h.seeds.rooms.set(TABLE, room([{ userId: A, name: 'Ann', seat: 1, stack: 200 }]));
    const actor = TableActor.create(TABLE, h.seeds.rooms.get(TABLE)!, 0, { ...h.deps, limits: { maxSpectators: 2 } });
    for (const n of [1, 2]) {
      await actor.submit({ kind: 'attach', connectionId: `s${n}`, streamId: 'g', userId: uid(20 + n), spectate: true });
    }
    await expect(
      actor.submit({ kind: 'attach', connectionId: 's3', streamId: 'g', userId: uid(23), spectate: true }),
    ).rejects.toMatchObject({ code: 'limit_reached' });
    // The same spectator attaching again, and a member, are still let in.
    await actor.submit({ kind: 'attach', connectionId: 's1', streamId: 'g', userId: uid(21), spectate: true });
    await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 'g', userId: A });
    expect(actor.snapshot().connections.filter((c) => c.spectator)).toHaveLength(2);
  });

  it('a full mailbox refuses client commands with busy, never the table’s own work', async () => {
    const h = harness();
    h.seeds.rooms.set(TABLE, room([{ userId: A, name: 'Ann', seat: 1, stack: 200 }]));
    const actor = TableActor.create(TABLE, h.seeds.rooms.get(TABLE)!, 0, { ...h.deps, limits: { mailboxMax: 3 } });
    await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 'g', userId: A });
    const flood = Array.from({ length: 10 }, (_, i) =>
      actor
        .submit({
          kind: 'client',
          connectionId: 'ca',
          userId: A,
          frame: { type: 'sit_out', table_id: TABLE, command_id: `f-${i}` },
        })
        .then(
          () => 'ok',
          (e: { code?: string }) => e.code,
        ),
    );
    const tick = actor.submit({ kind: 'tick' });
    const results = await Promise.all(flood);
    await expect(tick).resolves.toBeDefined();
    expect(results.filter((r) => r === 'busy').length).toBeGreaterThanOrEqual(7);
    expect(results.filter((r) => r === 'ok').length).toBeGreaterThanOrEqual(1);
  });
});

describe('the viewer’s seat is the engine’s', () => {
  it('a member the rows already place at a seat someone else still plays sees none of that seat’s cards', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    await dealFirstHand(h);
    const bobsCards = actorState(h, B).hero!.cards;
    expect(bobsCards).toHaveLength(2);
    // Bob was paid out by the lobby and Cy took seat 2 in the rows; Bob plays his hand to its end.
    const seed = h.seeds.rooms.get(TABLE)!;
    h.seeds.rooms.set(TABLE, {
      ...seed,
      members: [...seed.members.filter((m) => m.userId !== B), { userId: C, name: 'Cy', seat: 2, stack: 200 }],
    });
    await actor.submit({ kind: 'refresh' });
    const out = await actor.submit({ kind: 'attach', connectionId: 'cc', streamId: 's3', userId: C });
    const snap = out.replies.at(-1)!.message as TableState;
    expect(snap.type).toBe('table_state');
    expect(snap.hero?.cards ?? []).toEqual([]);
    expect(snap.hero?.valid_actions).toBeUndefined();
    const seat2 = snap.seats.find((s) => s.seat === 2)!;
    expect(seat2.user_id).toBe(B);
    expect(seat2.cards?.every((c) => c === null)).toBe(true);
    expect(JSON.stringify(snap)).not.toContain(bobsCards[0]!);
  });
});
