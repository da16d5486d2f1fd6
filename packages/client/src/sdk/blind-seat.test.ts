// BlindSeat against @felt/blind's own state machine as the table (test/support/blind-table.ts): whole
// hands, with bare seats fed as a TableSession feeds them and with a FeltClient on a fake socket.
import { blindKeySchema, blindSharesSchema, blindShuffleSchema, stateHash, type TableState } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { BlindTable, SeatEndpoint, SessionEndpoint, seededRng, type Outgoing } from '../../test/support/blind-table.js';
import { TABLE, resync } from '../../test/support/messages.js';
import { BlindSeatStatus, type BlindAuditFailure } from './blind-seat.js';
import { FeltSdkError } from './errors.js';

const SEATS = [1, 2, 3];

function bareTable(seats: readonly number[] = SEATS, lambda = 3): { table: BlindTable; at: Map<number, SeatEndpoint> } {
  const table = new BlindTable(seats, { lambda });
  const at = new Map<number, SeatEndpoint>();
  for (const seat of seats) {
    const endpoint = new SeatEndpoint(seat, { rng: seededRng(`seat-${seat}/${lambda}`) });
    at.set(seat, endpoint);
    table.attach(endpoint);
  }
  return { table, at };
}

function seatAt(at: Map<number, SeatEndpoint>, seat: number): SeatEndpoint {
  const endpoint = at.get(seat);
  if (endpoint === undefined) throw new Error(`no seat ${seat}`);
  return endpoint;
}

/** Lets the acks' and refusals' promise callbacks run. */
async function settled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

/** Keys, shuffles and the hole cards' shares. */
function dealToHoles(table: BlindTable): void {
  table.publish();
  table.settle();
  expect(table.state.phase).toBe('play');
  table.dealHoles();
  table.settle();
}

describe('BlindSeat: a whole hand against the table', () => {
  it('each of three seats reads exactly its own hole cards, in deal order, and shows open them', () => {
    const { table, at } = bareTable();
    const told = new Map<number, (readonly string[])[]>();
    for (const [seat, e] of at) e.blind.on('cards', ({ cards }) => told.set(seat, [...(told.get(seat) ?? []), cards]));
    table.publish();
    expect([...at.values()].map((e) => e.blind.status)).toEqual(['active', 'active', 'active']);
    table.settle();
    expect(table.state.shuffled).toBe(3);
    for (const e of at.values()) expect(e.blind.holeCards()).toEqual([]);

    table.dealHoles();
    table.settle();
    const holes = new Map(SEATS.map((seat) => [seat, seatAt(at, seat).blind.holeCards()]));
    for (const seat of SEATS) {
      expect(holes.get(seat)).toHaveLength(2);
      expect(told.get(seat)?.at(-1)).toEqual(holes.get(seat));
      expect(seatAt(at, seat).blind.failure).toBeNull();
      expect(seatAt(at, seat).blind.audited).toBe(true);
    }
    const all = [...holes.values()].flat();
    expect(new Set(all).size).toBe(6);
    // The table cannot open any of them.
    for (const seat of SEATS) for (const p of table.holePositions(seat)) expect(table.opened(p)).toBeUndefined();

    // Each shows: the table opens exactly the cards the seat read, at its positions in deal order.
    for (const seat of SEATS) {
      void seatAt(at, seat).blind.show();
      table.settle();
      expect(table.holePositions(seat).map((p) => table.opened(p))).toEqual(holes.get(seat));
    }
  });

  it('keeps the cards out of the reduced state: the snapshot is as hashed, with no hole card in it', () => {
    const { table, at } = bareTable();
    dealToHoles(table);
    for (const seat of SEATS) {
      const { view, blind } = seatAt(at, seat);
      const state = view.state as TableState;
      const { state_hash: claimed, ...unhashed } = state;
      expect(stateHash(unhashed)).toBe(claimed);
      expect(state.hero?.cards).toEqual([]);
      const json = JSON.stringify(view);
      for (const card of blind.holeCards()) expect(json).not.toContain(`"${card}"`);
    }
  });

  it('opens the board, and a folded seat releases its shares so the board opens without it', async () => {
    const { table, at } = bareTable();
    dealToHoles(table);
    const flop = table.dealBoard(3);
    table.settle();
    expect(flop.every((p) => table.opened(p) !== undefined)).toBe(true);
    // Still in the hand: nothing is released, even when asked.
    await expect(seatAt(at, 3).blind.release()).resolves.toBeNull();
    expect(table.settle()).toEqual([]);

    // Seat 3 folds: its next snapshot shows it, and it releases every undealt position at once.
    table.folded.add(3);
    table.publish();
    const taken = table.settle();
    expect(taken.map((o) => o.frame.type)).toEqual(['blind_shares']);
    const released = blindSharesSchema.parse(taken[0]?.frame).shares.map((s) => s.position);
    const undealt = Array.from({ length: 52 }, (_, p) => p).filter((p) => table.state.positions[p] === undefined);
    expect(undealt).toHaveLength(52 - 6 - 3);
    expect(released).toEqual(undealt);
    // Released once, even when the next snapshots say it again.
    table.publish();
    expect(table.settle()).toEqual([]);

    // Seat 3 is gone: the turn and the river still open.
    table.away.add(3);
    const turn = table.dealBoard(1);
    table.settle();
    const river = table.dealBoard(1);
    table.settle();
    expect([...turn, ...river].every((p) => table.opened(p) !== undefined)).toBe(true);
    expect(table.state.deadline).toBeNull();
    // Its own hole cards were never released.
    for (const p of table.holePositions(3)) expect(table.state.shares[p]?.[3]).toBeUndefined();
  });

  it('refuses to show without a hand, and sends nothing for a spectator or a seat not dealt in', async () => {
    const { table, at } = bareTable([1, 2]);
    const outsider = new SeatEndpoint(3);
    await expect(outsider.blind.show()).rejects.toMatchObject({ code: 'blind_nothing_to_show' });
    table.publish();
    outsider.deliver(table.snapshotFor(3));
    outsider.deliver(table.snapshotFor(null));
    expect(outsider.drain()).toEqual([]);
    expect(outsider.blind.status).toBe(BlindSeatStatus.IDLE);
    // Dealt in but before any hole card: nothing to show.
    await expect(seatAt(at, 1).blind.show()).rejects.toBeInstanceOf(FeltSdkError);
    await expect(seatAt(at, 1).blind.release()).resolves.toBeNull();
  });

  it('leaves the hand when the table moves on, and starts the next one with a new key', () => {
    const { table, at } = bareTable([1, 2]);
    dealToHoles(table);
    const first = seatAt(at, 1).blind;
    expect(first.holeCards()).toHaveLength(2);
    const next = new BlindTable([1, 2], { handId: '00000000-0000-4000-8000-00000000000c' });
    next.seq = table.seq;
    for (const seat of [1, 2]) next.attach(seatAt(at, seat));
    next.publish();
    expect(first.handId).toBe(next.handId);
    expect(first.holeCards()).toEqual([]);
    next.settle();
    expect(next.state.phase).toBe('play');
    expect(next.state.keys[1]).not.toBe(table.state.keys[1]);
  });
});

describe('BlindSeat: its audit of the table', () => {
  it('catches a relayed shuffle that was tampered with, tells it once, and sends nothing more', async () => {
    // At the real lambda: at 3 a tampered deck would pass the cut-and-choose one time in 8.
    const { table, at } = bareTable([1, 2], 40);
    const failures: BlindAuditFailure[] = [];
    const victim = seatAt(at, 2);
    victim.blind.on('audit_failed', (f) => failures.push(f));
    const statuses: string[] = [];
    victim.blind.on('status', (s) => statuses.push(s));
    table.relay = (to, step) => {
      if (to !== 2 || step.shuffle === undefined) return step;
      const [a, b, ...rest] = step.shuffle.output;
      return { ...step, shuffle: { ...step.shuffle, output: [b!, a!, ...rest] } };
    };
    table.publish();
    table.settle();
    // Seat 1 shuffled; seat 2 owes its shuffle but, having caught the table, never sends it.
    expect(table.state.phase).toBe('shuffle');
    expect(table.state.shuffled).toBe(1);
    expect(victim.blind.failure).toEqual({
      handId: table.handId,
      step: 'shuffle',
      seat: 1,
      detail: expect.any(String),
    });
    expect(victim.blind.status).toBe(BlindSeatStatus.AUDIT_FAILED);
    expect(statuses).toEqual(['active', 'audit_failed']);
    table.publish();
    expect(victim.drain()).toEqual([]);
    expect(failures).toHaveLength(1);
    await expect(victim.blind.show()).rejects.toMatchObject({ code: 'blind_audit_failed' });
    expect(seatAt(at, 1).blind.failure).toBeNull();
  });

  it('catches a snapshot whose encrypted cards are not the ones the shuffles made', () => {
    const { table, at } = bareTable([1, 2]);
    table.publish();
    table.settle();
    table.viewFor = (to, view) => {
      if (to !== 1) return view;
      const [a, b, ...rest] = view.encrypted;
      return { ...view, encrypted: [b!, a!, ...rest] };
    };
    table.dealHoles();
    table.settle();
    expect(seatAt(at, 1).blind.failure).toMatchObject({ step: 'deck', seat: null });
    // Seat 2's cards need seat 1's shares, which never came.
    expect(seatAt(at, 2).blind.holeCards()).toEqual([]);
    expect(table.state.deadline).not.toBeNull();
  });

  it('catches a snapshot that substitutes a share for the one relayed with its proof', () => {
    const { table, at } = bareTable([1, 2]);
    table.publish();
    table.settle();
    // Seat 2 sees seat 1's share of its first card replaced by another (valid) point.
    table.viewFor = (to, view) => {
      if (to !== 2) return view;
      return {
        ...view,
        positions: view.positions.map((p) =>
          p.to === 2 && p.shares['1'] !== undefined ? { ...p, shares: { ...p.shares, 1: view.keys['1']! } } : p,
        ),
      };
    };
    table.dealHoles();
    table.settle();
    expect(seatAt(at, 2).blind.failure).toMatchObject({ step: 'shares', seat: 1 });
    expect(seatAt(at, 2).blind.holeCards()).toEqual([]);
  });

  it('does not blame an honest share after a missed shuffle: it stops auditing and still reads its cards', () => {
    const { table, at } = bareTable([1, 2]);
    const seat1 = seatAt(at, 1);
    table.publish();
    for (const seat of [1, 2]) for (const out of seatAt(at, seat).drain()) table.take(seat, out);
    for (const out of seat1.drain()) table.take(1, out);
    // Seat 2's shuffle, the last, and the snapshot after it are lost on their way to seat 1: its copy of
    // the deck is one shuffle behind, and checking a share against it would blame an honest seat.
    const [shuffle2] = seatAt(at, 2).drain();
    expect(shuffle2?.frame.type).toBe('blind_shuffle');
    table.away.add(1);
    table.take(2, shuffle2 as Outgoing);
    table.away.delete(1);
    expect(table.state.phase).toBe('play');
    table.dealHoles();
    table.settle();
    expect(seat1.blind.audited).toBe(false);
    expect(seat1.blind.failure).toBeNull();
    expect(seat1.blind.holeCards()).toHaveLength(2);
    expect(seatAt(at, 2).blind.holeCards()).toHaveLength(2);
  });
});

describe('BlindSeat: sending again', () => {
  it('after a reconnect sends again what is owed and no command carries, once', async () => {
    const { table, at } = bareTable([1, 2]);
    table.publish();
    table.settle();
    table.dealHoles();
    const seat2 = seatAt(at, 2);
    // Seat 2's shares of seat 1's cards are refused (a table that lost track of them).
    const [shares] = seat2.drain();
    expect(shares?.frame.type).toBe('blind_shares');
    shares?.refuse('invalid_frame', 'lost');
    await settled();
    table.settle();
    // Nothing goes out again by itself: the table owes seat 1 its cards still.
    table.publish();
    expect(seat2.drain()).toEqual([]);
    expect(seatAt(at, 1).blind.holeCards()).toEqual([]);

    seat2.blind.reconnected();
    table.publish();
    const again = seat2.drain();
    expect(again.map((o) => blindSharesSchema.parse(o.frame).shares.map((s) => s.position))).toEqual([
      table.holePositions(1),
    ]);
    for (const out of again) table.take(2, out);
    table.settle();
    expect(seatAt(at, 1).blind.holeCards()).toHaveLength(2);
    // The resend was once: later snapshots send nothing more.
    table.publish();
    expect(table.settle()).toEqual([]);
  });

  it('leaves a command in flight to the command layer, and resends on its timeout', async () => {
    const { table, at } = bareTable([1, 2]);
    const seat1 = seatAt(at, 1);
    table.publish();
    const [key] = seat1.drain();
    expect(key?.frame.type).toBe('blind_key');
    // A resync while the key is in flight: it is not sent twice.
    seat1.deliver(resync(table.seq + 1, table.snapshotFor(1, table.seq + 1), []));
    table.seq += 1;
    expect(seat1.drain()).toEqual([]);
    // The command layer gives up: the key goes out again.
    const timeouts: unknown[] = [];
    seat1.blind.on('send_failed', (f) => timeouts.push(f.error));
    key?.refuse('unavailable', 'the table moved');
    await settled();
    expect(timeouts).toHaveLength(1);
    const [again] = seat1.drain();
    expect(again?.frame).toMatchObject({ type: 'blind_key', proof: { Y: blindKeySchema.parse(key?.frame).proof.Y } });
    table.take(1, again as Outgoing);
    table.settle();
    expect(table.state.phase).toBe('play');
  });

  it('a page reloaded mid-hand lost its key: it says so and sends nothing', () => {
    const { table, at } = bareTable([1, 2]);
    table.publish();
    table.settle();
    const reloaded = new SeatEndpoint(2);
    table.attach(reloaded);
    table.dealHoles();
    expect(reloaded.blind.status).toBe(BlindSeatStatus.KEY_LOST);
    expect(reloaded.drain()).toEqual([]);
    expect(reloaded.blind.holeCards()).toEqual([]);
    expect(seatAt(at, 1).blind.status).toBe(BlindSeatStatus.ACTIVE);
  });

  it('cannot take part in a game this SDK does not know', () => {
    const table = new BlindTable([1, 2]);
    const e = new SeatEndpoint(1);
    const unknown = table.snapshotFor(1);
    const { state_hash: _h, ...rest } = unknown;
    const renamed = { ...rest, variant: { ...rest.variant, game: 'holdem-2030' } };
    e.deliver({ ...renamed, state_hash: stateHash(renamed) });
    expect(e.blind.status).toBe(BlindSeatStatus.UNSUPPORTED);
    expect(e.drain()).toEqual([]);
  });
});

describe('BlindSeat in a TableSession (FeltClient on a fake socket)', () => {
  it('plays a hand: its frames are commands of the wire, its cards stay out of the state, show opens them', async () => {
    const table = new BlindTable([1, 2]);
    const hero = new SessionEndpoint(2);
    const other = new SeatEndpoint(1, { rng: seededRng('other') });
    table.attach(hero);
    table.attach(other);
    table.publish();
    expect(hero.session.status).toBe('joined');
    expect(hero.session.blind.status).toBe('active');
    table.settle();
    table.dealHoles();
    table.settle();
    const cards = hero.session.blind.holeCards();
    expect(cards).toHaveLength(2);
    const frames = hero.blindFrames();
    expect(frames.map((f) => f.type)).toEqual(['blind_key', 'blind_shuffle', 'blind_shares']);
    blindKeySchema.parse(frames[0]);
    blindShuffleSchema.parse(frames[1]);
    blindSharesSchema.parse(frames[2]);
    for (const f of frames)
      expect(f).toMatchObject({ table_id: TABLE, hand_id: table.handId, command_id: expect.any(String) });
    expect(hero.client.stats.hashMismatches).toBe(0);
    expect(hero.client.stats.acks).toBe(3);
    const json = JSON.stringify(hero.session.view);
    for (const card of cards) expect(json).not.toContain(`"${card}"`);

    const ack = hero.session.blind.show();
    table.settle();
    await expect(ack).resolves.toMatchObject({ type: 'ack' });
    expect(table.holePositions(2).map((p) => table.opened(p))).toEqual(cards);
  });

  it('after a reconnect the command layer re-sends what was in flight, the seat adds no duplicate, and the hand goes on', () => {
    const table = new BlindTable([1, 2]);
    const hero = new SessionEndpoint(2);
    const other = new SeatEndpoint(1, { rng: seededRng('other') });
    table.attach(hero);
    table.attach(other);
    table.publish();
    table.settle();
    table.dealHoles();
    // The hero's shares go out, and the connection drops before the table reads them.
    const lost = hero.drain();
    expect(lost.map((o) => o.frame.type)).toEqual(['blind_shares']);
    const lostId = lost[0]?.frame.command_id;
    table.away.add(2);
    hero.socket.serverClose();
    // Meanwhile seat 1 answers, and the table moves on.
    table.settle();
    const watermark = hero.session.view.lastTableSeq;
    hero.timers.advance(100);
    hero.socket.acceptOpen();
    expect(hero.socket.framesOfType('join_table')).toHaveLength(1);
    table.away.delete(2);
    // The join answer, then the resync's replay of what was missed: seat 1's shares of the hero's cards.
    table.publish();
    expect(hero.socket.framesOfType('resync_request')).toEqual([
      { type: 'resync_request', table_id: TABLE, from_table_seq: watermark },
    ]);
    const replay = table.replayFor(2, watermark);
    expect(replay.map((m) => m.shares !== undefined)).toContain(true);
    hero.deliver(resync(table.seq, table.snapshotFor(2, table.seq), replay, 'player', watermark));
    const resent = hero.drain();
    expect(resent.map((o) => [o.frame.type, o.frame.command_id])).toEqual([['blind_shares', lostId]]);
    for (const out of resent) table.take(2, out);
    table.settle();
    expect(other.blind.holeCards()).toHaveLength(2);
    expect(hero.session.blind.holeCards()).toHaveLength(2);
    expect(hero.session.blind.failure).toBeNull();
  });
});
