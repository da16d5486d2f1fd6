// The table actor: the pipeline of one command (commit, sequence, checkpoint, publish), actions and
// their refusals, resyncs, hostile traffic and whose cards a viewer sees. Its clock and heartbeats
// are in table-actor-clock.test.ts, whole hands and voids in table-actor-hands.test.ts.
import { describe, expect, it } from 'vitest';
import { serverMessageSchema, stateHash, tableStateSchema, type ResyncResponse, type TableState } from '@felt/protocol';
import { TableActor } from './table-actor.js';
import { flush, harness, room, TABLE, uid } from '../../test/support/fakes.js';
import { A, actorState, B, C, dealFirstHand, lastState, twoPlayers } from '../../test/support/actor.js';

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

  it('a save written but not confirmed is undone, and the next save supersedes its buffered events', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    const seq = actor.tableSeq;
    const published = h.publisher.all.length;
    // A chat line is a buffered event (everyone's, for a resync).
    const say = (text: string) =>
      actor.submit({ kind: 'client', connectionId: 'ca', userId: A, frame: { type: 'chat', table_id: TABLE, text } });
    h.checkpoints.failAfterWrite = true;
    await expect(say('lost')).rejects.toThrow(/not confirmed/);
    expect(h.publisher.all.length).toBe(published);
    expect(actor.tableSeq).toBe(seq);
    // The store kept what that save wrote; the next command takes the same table_seqs.
    expect((await h.checkpoints.load(TABLE))!.events.at(-1)).toMatchObject({ tableSeq: seq + 1 });
    const again = await say('kept');
    const { events } = (await h.checkpoints.load(TABLE))!;
    expect(JSON.stringify(events)).not.toContain('lost');
    const seqs = events.map((e) => e.tableSeq);
    expect(new Set(seqs).size, `buffered table_seqs ${seqs.join(',')}`).toBe(seqs.length);
    expect(seqs.at(-1)).toBe(again.tableSeq);
    await actor.stop();
  });

  it('answers a checkpointed command even when its publish is lost, and the next message shows the gap', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    const before = h.publisher.toUser(A).at(-1)!.table_seq;
    h.publisher.fail = true;
    // B leaves: checkpointed, so answered, though nothing reached A.
    const left = await actor.submit({ kind: 'detach', connectionId: 'cb', userId: B });
    expect(left.tableSeq).toBeGreaterThan(before);
    expect(h.checkpoints.saved.get(TABLE)!.tableSeq).toBe(left.tableSeq);
    expect(h.publisher.toUser(A).at(-1)!.table_seq).toBe(before);
    h.publisher.fail = false;
    await actor.submit({ kind: 'attach', connectionId: 'cb2', streamId: 's1', userId: B });
    // A's next message chains to what A's stream lost, not to what A last got: A resyncs.
    const next = h.publisher.toUser(A).find((m) => m.table_seq > left.tableSeq)!;
    expect(next.prev_table_seq).toBeGreaterThan(before);
    await actor.stop();
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

describe('one user’s share of the mailbox', () => {
  it('refuses one user’s commands beyond their share with busy, and still takes another player’s', async () => {
    const h = harness();
    h.seeds.rooms.set(
      TABLE,
      room([
        { userId: A, name: 'Ann', seat: 1, stack: 200 },
        { userId: B, name: 'Bob', seat: 2, stack: 200 },
      ]),
    );
    const actor = TableActor.create(TABLE, h.seeds.rooms.get(TABLE)!, 0, {
      ...h.deps,
      limits: { mailboxPerUser: 3 },
    });
    await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 'g', userId: A });
    await actor.submit({ kind: 'attach', connectionId: 'cb', streamId: 'g', userId: B });
    const settle = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: { code?: string }) => e.code,
      );
    // Ann floods from two sockets at once; Bob sends one command behind her flood.
    const flood = Array.from({ length: 10 }, (_, i) =>
      settle(
        actor.submit({
          kind: 'client',
          connectionId: i % 2 === 0 ? 'ca' : 'ca2',
          userId: A,
          frame: { type: 'sit_out', table_id: TABLE, command_id: `f-${i}` },
        }),
      ),
    );
    const bob = settle(
      actor.submit({
        kind: 'client',
        connectionId: 'cb',
        userId: B,
        frame: { type: 'sit_out', table_id: TABLE, command_id: 'b-1' },
      }),
    );
    const results = await Promise.all(flood);
    expect(results.filter((r) => r === 'busy')).toHaveLength(7);
    expect(await bob).toBe('ok');
    // Her share frees as her commands are answered.
    expect(
      await settle(
        actor.submit({
          kind: 'client',
          connectionId: 'ca',
          userId: A,
          frame: { type: 'sit_in', table_id: TABLE, command_id: 'f-after' },
        }),
      ),
    ).toBe('ok');
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
