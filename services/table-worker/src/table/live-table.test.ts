import { describe, expect, it } from 'vitest';
import type { TableMessage, TableState } from '@felt/protocol';
import { createActor, flush, harness, pass, room, TABLE, uid, type Harness } from '../../test/support/fakes.js';
import type { TableActor } from '../actor/table-actor.js';

const A = uid(1);
const B = uid(2);
const C = uid(3);

function last(msgs: readonly TableMessage[]): TableState {
  return msgs.filter((m): m is TableState => m.type === 'table_state').at(-1)!;
}

async function table(h: Harness, config = {}, members = [A, B]): Promise<TableActor> {
  const actor = createActor(
    h,
    room(
      members.map((userId, i) => ({ userId, name: `P${i + 1}`, seat: i + 1, stack: 500 })),
      config,
    ),
  );
  for (const [i, u] of members.entries()) {
    await actor.submit({ kind: 'attach', connectionId: `c${i}`, streamId: 's', userId: u });
  }
  return actor;
}

const conn = (u: string) => `c${[A, B, C].indexOf(u)}`;

describe('client seeds (docs/fairness.md, the derivation, step 4)', () => {
  it('accepts one seed per dealt-in seat inside the window, deals at once when every human sent one, and counts them', async () => {
    const h = harness();
    const actor = await table(h);
    h.time.advance(1_000);
    await flush();
    const commit = h.publisher.toUser(A).find((m) => m.type === 'seed_commit') as { hand_id: string };
    const seed = (u: string, s: string, id: string) =>
      actor.submit({
        kind: 'client',
        connectionId: conn(u),
        userId: u,
        frame: { type: 'client_seed', table_id: TABLE, hand_id: commit.hand_id, seed: s.repeat(64), command_id: id },
      });
    const first = seed(A, 'a', 's1');
    // Alone, the first seed waits for Bob's for at most 50 ms (TableActor.seedInGroup).
    await pass(h, 50);
    expect((await first).result).toMatchObject({ ok: true });
    expect((await seed(A, 'c', 's2')).result).toMatchObject({ ok: false, code: 'seed_refused' });
    // Not dealt yet: Bob has not sent his.
    expect(h.publisher.toUser(A).some((m) => m.type === 'hole_cards_dealt')).toBe(false);
    expect((await seed(B, 'b', 's3')).result).toMatchObject({ ok: true });
    expect(h.publisher.toUser(A).some((m) => m.type === 'hole_cards_dealt')).toBe(true);
    // A forged hand id is stale; a seed after the deal is refused.
    const late = await actor.submit({
      kind: 'client',
      connectionId: conn(B),
      userId: B,
      frame: { type: 'client_seed', table_id: TABLE, hand_id: commit.hand_id, seed: 'd'.repeat(64), command_id: 's4' },
    });
    expect(late.result).toMatchObject({ ok: false, code: 'seed_refused' });
    // Play the hand out with the clock; its reveal lists both seeds, seat ascending.
    for (let i = 0; i < 20 && !h.publisher.toUser(A).some((m) => m.type === 'seed_reveal'); i++) {
      h.time.advance(16_000);
      await flush();
    }
    const reveal = h.publisher.toUser(A).find((m) => m.type === 'seed_reveal') as {
      reveal: { client_seeds: { seat: number; seed: string }[] };
    };
    expect(reveal.reveal.client_seeds).toEqual([
      { seat: 1, seed: 'a'.repeat(64) },
      { seat: 2, seed: 'b'.repeat(64) },
    ]);
  });

  it('never waits past the window: without seeds the deal comes when it closes', async () => {
    const h = harness();
    await table(h);
    h.time.advance(1_000);
    await flush();
    h.time.advance(1_400);
    await flush();
    expect(h.publisher.toUser(A).some((m) => m.type === 'hole_cards_dealt')).toBe(false);
    h.time.advance(100);
    await flush();
    expect(h.publisher.toUser(A).some((m) => m.type === 'hole_cards_dealt')).toBe(true);
  });
});

describe('views', () => {
  it('Stud: up cards are everyone’s, down cards only their owner’s, in snapshots and events', async () => {
    const h = harness();
    const actor = await table(h, { game: 'stud' }, [A, B, C]);
    await actor.submit({ kind: 'attach', connectionId: 'spec', streamId: 's', userId: uid(9), spectate: true });
    await pass(h, 2_500);
    const ann = last(h.publisher.toUser(A));
    const spec = last(h.publisher.toSpectators());
    const mine = ann.seats.find((s) => s.user_id === A)!;
    expect(mine.cards!.every((c) => c !== null)).toBe(true);
    expect(mine.up).toEqual([false, false, true]);
    for (const s of ann.seats.filter((x) => x.in_hand && x.user_id !== A)) {
      expect(s.cards![0]).toBeNull();
      expect(s.cards![1]).toBeNull();
      expect(s.cards![2]).not.toBeNull();
    }
    for (const s of spec.seats.filter((x) => x.in_hand)) expect(s.cards!.filter((c) => c !== null)).toHaveLength(1);
    expect(spec.hero).toBeUndefined();
    const third = h.publisher.toSpectators().find((m) => m.type === 'street_revealed') as {
      up_cards: { seat: number; cards: string[] }[];
    };
    expect(third.up_cards).toHaveLength(3);
    expect(h.publisher.toSpectators().some((m) => m.type === 'hole_cards_dealt')).toBe(false);
  });
});

describe('disconnect rules', () => {
  it('freezes the hand and its clock when no human has been connected for a while, and resumes with the time left', async () => {
    const h = harness();
    const actor = await table(h);
    await pass(h, 2_500);
    const s = last(h.publisher.toUser(A));
    expect(s.phase).toBe('betting');
    const expires = s.deadline! + s.time_bank_ms!;
    const left = expires - h.time.now();
    await actor.submit({ kind: 'detach', connectionId: 'c0', userId: A });
    await actor.submit({ kind: 'detach', connectionId: 'c1', userId: B });
    // Past the freeze delay (10 s) and far past the turn's end: nothing happens.
    await pass(h, 60_000, 1_000);
    expect(actor.snapshot().frozenAt).not.toBeNull();
    const ops = actor.snapshot().hand!.operations.length;
    const back = await actor.submit({ kind: 'attach', connectionId: 'c2', streamId: 's', userId: A });
    const snap = back.replies[0]!.message as TableState;
    // The turn resumes with what it had left when the table froze (10 s after the last human left).
    expect(snap.deadline! + snap.time_bank_ms! - h.time.now()).toBe(left - 10_000);
    expect(actor.snapshot().hand!.operations.length).toBe(ops);
    expect(h.publisher.toUser(A).some((m) => m.type === 'player_action')).toBe(false);
    await pass(h, left - 10_000 + 100);
    expect(h.publisher.toUser(A).find((m) => m.type === 'player_action')).toMatchObject({
      hand_id: s.hand_id,
      timeout: true,
    });
  });

  it('a reconnect while another human is connected never moves the deadline', async () => {
    const h = harness();
    const actor = await table(h);
    await pass(h, 2_500);
    const before = last(h.publisher.toUser(A));
    await actor.submit({ kind: 'detach', connectionId: 'c0', userId: A });
    await pass(h, 5_000);
    const back = await actor.submit({ kind: 'attach', connectionId: 'c9', streamId: 's', userId: A });
    expect((back.replies[0]!.message as TableState).deadline).toBe(before.deadline);
  });

  it('when the lobby removes a member mid-hand, the clock acts at their turn at once and the seat frees after the hand', async () => {
    const h = harness();
    const actor = await table(h, { startHand: { autoStart: true } }, [A, B, C]);
    await pass(h, 2_500);
    // Three-handed, the button (seat 1) acts first preflop: the lobby removes that player now.
    const first = last(h.publisher.toUser(B));
    expect(first.actor).toBe(1);
    const seed = h.seeds.rooms.get(TABLE)!;
    h.seeds.rooms.set(TABLE, { ...seed, members: seed.members.filter((m) => m.userId !== A) });
    await actor.submit({ kind: 'refresh' });
    // At once, not after the 10 s clock: folded facing the big blind.
    const gone = h.publisher.toUser(B).find((m) => m.type === 'player_action' && m.seat === 1);
    expect(gone).toMatchObject({ action: 'fold', timeout: true });
    expect(last(h.publisher.toUser(B)).seats.find((s) => s.seat === 1)!.status).toBe('sitting_out');
    for (let i = 0; i < 20 && !h.publisher.toUser(B).some((m) => m.type === 'hand_result'); i++)
      await pass(h, 16_000, 2_000);
    expect(last(h.publisher.toUser(B)).seats.find((s) => s.seat === 1)!.status).toBe('empty');
  });
});

describe('the next hand', () => {
  it('is announced (next_hand_at) only while one could start: not after a hand that leaves one player', async () => {
    const h = harness();
    const actor = await table(h, { startHand: { autoStart: true } }, [A, B]);
    await pass(h, 2_500);
    expect(last(h.publisher.toUser(A)).hand_id).toBeTruthy();
    // The lobby removes B mid-hand: their turn is folded, and after the hand A sits alone.
    const seed = h.seeds.rooms.get(TABLE)!;
    h.seeds.rooms.set(TABLE, { ...seed, members: seed.members.filter((m) => m.userId !== B) });
    await actor.submit({ kind: 'refresh' });
    for (let i = 0; i < 20 && !h.publisher.toUser(A).some((m) => m.type === 'hand_result'); i++)
      await pass(h, 16_000, 2_000);
    await pass(h, 2_000);
    const msgs = h.publisher.toUser(A);
    const result = msgs.findIndex((m) => m.type === 'hand_result');
    expect(result).toBeGreaterThanOrEqual(0);
    // Every snapshot from the hand's end on: no next hand while A sits alone.
    const states = msgs.slice(result).filter((m): m is TableState => m.type === 'table_state');
    expect(states.length).toBeGreaterThan(0);
    expect(states.map((m) => m.next_hand_at)).toEqual(states.map(() => undefined));
    await flush();
  });
});
