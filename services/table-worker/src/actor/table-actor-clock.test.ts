// The table actor on its clock: turn timeouts, warnings and the time bank, reconnects mid-turn,
// and heartbeats on a quiet table.
import { describe, expect, it } from 'vitest';
import { serverMessageSchema, type TableMessage, type TableState } from '@felt/protocol';
import { TableActor } from './table-actor.js';
import { flush, harness, pass, room, TABLE } from '../../test/support/fakes.js';
import { A, actorState, B, C, dealFirstHand, twoPlayers } from '../../test/support/actor.js';

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

  it('refills the time bank by the room’s amount every N hands, never beyond a full bank', async () => {
    const h = harness();
    await twoPlayers(h, { clock: { refillSeconds: 2, refillEveryHands: 1 } });
    await dealFirstHand(h);
    const first = actorState(h, A);
    const spender = first.seats.find((x) => x.seat === first.actor)!.user_id!;
    // The actor lets the whole clock run (10 s, then the 5 s bank): the bank is spent.
    h.time.advance(first.deadline! + first.time_bank_ms! - h.time.now());
    await flush();
    const bankOf = (user: string) => actorState(h, A).seats.find((x) => x.user_id === user)!.time_bank_ms;
    // Nobody acts until the hand is over: each turn the clock acts.
    for (let k = 0; k < 8 && actorState(h, A).hand_id === first.hand_id && actorState(h, A).phase !== 'complete'; k++) {
      h.time.advance(15_000);
      await flush();
    }
    const other = spender === A ? B : A;
    // Hand 1 was a refill hand (every hand): the spender got 2 s back; a full bank stays full.
    expect(bankOf(spender)).toBe(2_000);
    expect(bankOf(other)).toBeLessThanOrEqual(5_000);
    expect(bankOf(other)).toBeGreaterThanOrEqual(2_000);
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
