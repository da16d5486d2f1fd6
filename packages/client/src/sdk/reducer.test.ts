// Reference 003's conformance table, one test per row, then properties over arbitrary streams.
import { serverMessageSchema, type HandVoided } from '@felt/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HAND_A,
  HAND_B,
  TABLE,
  TOKEN,
  VALID,
  emptySeat,
  holeCards,
  legacy,
  playerAction,
  resync,
  seat,
  seedCommit,
  streetRevealed,
  tableState,
  yourTurn,
} from '../../test/support/messages.js';
import {
  currentTurn,
  foldedSeats,
  initialTableView,
  reduceTable,
  type ReducibleMessage,
  type TableView,
} from './reducer.js';

function run(messages: readonly ReducibleMessage[], view: TableView = initialTableView(TABLE)): TableView {
  for (const m of messages) {
    // The builders must produce what the protocol accepts, or these tests prove nothing.
    expect(serverMessageSchema.safeParse(m).error).toBeUndefined();
    view = reduceTable(view, m).view;
  }
  return view;
}

describe('client contract conformance scenarios', () => {
  it('fold event, then snapshot with folded: true — the seat remains folded regardless of connection status', () => {
    const view = run([
      tableState(10),
      playerAction(11, 3, 'fold'),
      tableState(12, { seats: [seat(1), seat(2), seat(3, { folded: true, status: 'disconnected' }), emptySeat(4)] }),
    ]);
    const s3 = view.state!.seats.find((s) => s.seat === 3)!;
    expect(s3).toMatchObject({ folded: true, status: 'disconnected', in_hand: true });
    expect(foldedSeats(view)).toEqual([3]);
  });

  it('legacy snapshot without folded — a same-hand fold marker is preserved', () => {
    const view = run([tableState(10), playerAction(11, 3, 'fold'), legacy(tableState(12))]);
    expect(view.state!.seats.find((s) => s.seat === 3)!.folded).toBe(true);
    // Seats without a marker stay as the snapshot had them (omitted), not invented as false.
    expect(view.state!.seats.find((s) => s.seat === 1)!.folded).toBeUndefined();
    // A marker never overrides an explicit snapshot value.
    const explicit = run(
      [tableState(13, { seats: [seat(1), seat(2), seat(3, { folded: false }), emptySeat(4)] })],
      view,
    );
    expect(explicit.state!.seats.find((s) => s.seat === 3)!.folded).toBe(false);
  });

  it('sequence jumps forward — the message is accepted and the gap alone asks for no resync', () => {
    const start = run([tableState(41)]);
    const r = reduceTable(start, playerAction(46, 1, 'call'));
    expect(r.applied).toBe(true);
    expect(r.lossDetected).toBe(false);
    expect(r.view.lastTableSeq).toBe(46);
    // With the live stream's prev_table_seq at or below the watermark, a gap is still not a loss.
    const live = reduceTable(r.view, { ...playerAction(60, 2, 'call'), prev_table_seq: 46 });
    expect(live.lossDetected).toBe(false);
    // prev_table_seq above the watermark proves a lost message: accepted, and a resync is due.
    const lost = reduceTable(live.view, { ...playerAction(70, 3, 'call'), prev_table_seq: 65 });
    expect(lost.applied).toBe(true);
    expect(lost.lossDetected).toBe(true);
  });

  it('duplicate or regressed sequence — ignored as stale', () => {
    const view = run([tableState(10), playerAction(12, 1, 'call')]);
    const dup = reduceTable(view, playerAction(12, 1, 'call'));
    expect(dup).toMatchObject({ applied: false, ignored: 'stale' });
    expect(dup.view).toBe(view);
    const older = reduceTable(view, tableState(11, { pot_total: 999 }));
    expect(older).toMatchObject({ applied: false, ignored: 'stale' });
    expect(older.view.state!.pot_total).toBe(30);
    const regressedFold = reduceTable(view, playerAction(9, 3, 'fold'));
    expect(regressedFold.applied).toBe(false);
    expect(regressedFold.view.hand!.folds).toEqual([]);
  });

  it('resync with replay plus snapshot — replay recorded as history, final state is the snapshot', () => {
    const before = run([seedCommit(5), tableState(10)]);
    const snapshot = tableState(20, {
      street: 'flop',
      board: ['2c', '7d', 'Jh'],
      pot_total: 90,
      seats: [seat(1), seat(2), seat(3, { folded: true }), emptySeat(4)],
    });
    const replay = [playerAction(13, 3, 'fold'), playerAction(11, 1, 'call'), streetRevealed(15, ['2c', '7d', 'Jh'])];
    // Unsorted and with a duplicate, as a careless buffer might send them.
    const r = reduceTable(before, resync(20, snapshot, [...replay, replay[0]!], 'player', 10));
    expect(r.applied).toBe(true);
    expect(r.view.state).toEqual(snapshot);
    expect(r.view.lastTableSeq).toBe(20);
    expect(r.view.hand!.events.map((e) => e.table_seq)).toEqual([5, 11, 13, 15]);
    // The replay did not mutate the final state a second time: the board is the snapshot's, once.
    expect(r.view.state!.board).toEqual(['2c', '7d', 'Jh']);
    // Later live messages at or below to_table_seq are stale.
    expect(reduceTable(r.view, playerAction(18, 1, 'check')).applied).toBe(false);
  });

  it('player resync during own turn — snapshot hand_id, legal actions and the same turn_token; deadline unchanged', () => {
    const before = run([tableState(10, { actor: 2 }), yourTurn(11)]);
    const turnBefore = currentTurn(before)!;
    expect(turnBefore.turnToken).toBe(TOKEN);
    // Reconnected: the view is rebuilt from scratch by the resync alone.
    const snapshot = tableState(14, {
      actor: 2,
      deadline: turnBefore.deadline,
      hero: { seat: 2, cards: ['As', 'Kd'], valid_actions: VALID, turn_token: TOKEN },
    });
    const after = reduceTable(initialTableView(TABLE), resync(14, snapshot, [yourTurn(11)], 'player', 0)).view;
    const turn = currentTurn(after)!;
    expect(turn).toMatchObject({ handId: HAND_A, seat: 2, turnToken: TOKEN, validActions: VALID });
    expect(turn.deadline).toBe(turnBefore.deadline);
    expect(after.state!.deadline).toBe(turnBefore.deadline);
  });

  it('player resync outside own turn — hero has no turn_token; the client waits for your_turn', () => {
    const before = run([tableState(10, { actor: 2 }), yourTurn(11)]);
    const snapshot = tableState(16, { actor: 3 });
    const after = reduceTable(before, resync(16, snapshot, [playerAction(12, 2, 'call')], 'player', 11)).view;
    expect(after.state!.hero).toEqual({ seat: 2, cards: ['As', 'Kd'] });
    expect(currentTurn(after)).toBeNull();
    const turn = reduceTable(after, yourTurn(19, { turn_token: 'tok_bbbbbbbbbbbbbbbb' })).view;
    expect(currentTurn(turn)?.turnToken).toBe('tok_bbbbbbbbbbbbbbbb');
  });

  it('spectator resync — no private hero state is created', () => {
    const spectatorSnapshot = tableState(30);
    const { hero: _hero, ...withoutHero } = spectatorSnapshot;
    const clean = tableState(30, { ...withoutHero, hero: undefined });
    const view = reduceTable(initialTableView(TABLE), resync(30, clean, [], 'spectator')).view;
    expect(view.role).toBe('spectator');
    expect(view.state!.hero).toBeUndefined();
    expect(currentTurn(view)).toBeNull();
    // Even a snapshot that (wrongly) carried a hero would not create one for a spectator.
    const leaky = reduceTable(initialTableView(TABLE), resync(31, tableState(31), [], 'spectator')).view;
    expect(leaky.state!.hero).toBeUndefined();
    // Private events addressed to a spectator create nothing and are flagged.
    const r = reduceTable(view, holeCards(32, ['Ah', 'Ad']));
    expect(r.anomaly).toMatch(/spectator/);
    expect(r.view.hand!.holeCards).toEqual([]);
    const t = reduceTable(r.view, yourTurn(33));
    expect(currentTurn(t.view)).toBeNull();
  });

  it('empty seat — its seat index is kept with status "empty" and no player is created', () => {
    const view = run([tableState(10, { seats: [seat(1), emptySeat(2), seat(3), emptySeat(4)], hero: undefined })]);
    const seats = view.state!.seats;
    expect(seats.map((s) => s.seat)).toEqual([1, 2, 3, 4]);
    expect(seats[1]).toEqual({ seat: 2, user_id: null, name: null, stack: 0, status: 'empty', in_hand: false, bet: 0 });
    expect(seats.filter((s) => s.user_id !== null)).toHaveLength(2);
    // A fold marker for an empty seat (not in hand) is never projected onto it.
    const after = run(
      [playerAction(11, 2, 'fold'), legacy(tableState(12, { seats: [seat(1), emptySeat(2), seat(3), emptySeat(4)] }))],
      view,
    );
    expect(after.state!.seats[1]).not.toHaveProperty('folded');
  });

  it("new hand_id — the prior hand's folds, board-derived history and turn token are cleared", () => {
    const handA = run([
      seedCommit(1),
      tableState(2),
      holeCards(3, ['As', 'Kd']),
      playerAction(4, 3, 'fold'),
      streetRevealed(5, ['2c', '7d', 'Jh']),
      yourTurn(6),
    ]);
    expect(handA.hand!.folds).toEqual([3]);
    expect(currentTurn(handA)).not.toBeNull();
    const handB = run([seedCommit(10, HAND_B)], handA);
    expect(handB.hand).toMatchObject({ handId: HAND_B, folds: [], holeCards: [], turn: null });
    expect(handB.hand!.events.map((e) => e.type)).toEqual(['seed_commit']);
    expect(currentTurn(handB)).toBeNull();
    // A legacy snapshot of the new hand does not inherit hand A's fold of seat 3.
    const snap = run([legacy(tableState(11, { hand_id: HAND_B, board: [] }))], handB);
    expect(snap.state!.seats.find((s) => s.seat === 3)!.folded).toBeUndefined();
  });
});

describe('voided hands (Protocol V2)', () => {
  const voided = (tableSeq: number, handId = HAND_A): HandVoided => ({
    type: 'hand_voided',
    table_id: TABLE,
    table_seq: tableSeq,
    hand_id: handId,
    hand_seq: 0,
    reason: 'checkpoint_lost',
    stacks: [
      { seat: 2, stack: 200 },
      { seat: 3, stack: 200 },
    ],
  });

  it('hand_voided ends the hand: the turn and folds are gone and the void is recorded, live or replayed', () => {
    const during = run([tableState(10, { actor: 2 }), playerAction(11, 3, 'fold'), yourTurn(12)]);
    expect(currentTurn(during)).not.toBeNull();
    const after = run([voided(13)], during);
    expect(currentTurn(after)).toBeNull();
    expect(after.hand).toMatchObject({ handId: HAND_A, folds: [], turn: null, result: null });
    expect(after.hand!.voided).toMatchObject({
      reason: 'checkpoint_lost',
      stacks: [
        { seat: 2, stack: 200 },
        { seat: 3, stack: 200 },
      ],
    });
    // The same through a resync whose snapshot still names the dead hand (it was taken first).
    const resynced = reduceTable(during, resync(14, tableState(14, { actor: 2 }), [voided(13)], 'player', 12)).view;
    expect(resynced.hand!.voided).not.toBeNull();
    expect(currentTurn(resynced)).toBeNull();
  });

  it('a late notice of an earlier hand’s void leaves the hand on the table alone', () => {
    const handB = run([
      seedCommit(20, HAND_B),
      tableState(21, { hand_id: HAND_B, actor: 2 }),
      yourTurn(22, { hand_id: HAND_B }),
    ]);
    expect(currentTurn(handB)).not.toBeNull();
    const after = run([voided(23, HAND_A)], handB);
    expect(after.hand).toBe(handB.hand);
    expect(after.hand!.seedCommit).not.toBeNull();
    expect(currentTurn(after)).not.toBeNull();
    expect(after.lastTableSeq).toBe(23);
  });
});

describe('loss detection from prev_table_seq (Protocol V2)', () => {
  it('prev_table_seq 0 means nothing came before, and nothing is lost before the baseline snapshot', () => {
    const fresh = initialTableView(TABLE);
    expect(reduceTable(fresh, { ...tableState(3), prev_table_seq: 0 }).lossDetected).toBe(false);
    // A live event that beats the join snapshot: the snapshot about to come brings the client up to date.
    expect(reduceTable(fresh, { ...playerAction(5, 1, 'call'), prev_table_seq: 4 }).lossDetected).toBe(false);
    const joined = reduceTable(fresh, tableState(3)).view;
    expect(reduceTable(joined, { ...playerAction(5, 1, 'call'), prev_table_seq: 0 }).lossDetected).toBe(false);
    expect(reduceTable(joined, { ...playerAction(5, 1, 'call'), prev_table_seq: 3 }).lossDetected).toBe(false);
    expect(reduceTable(joined, { ...playerAction(5, 1, 'call'), prev_table_seq: 4 }).lossDetected).toBe(true);
  });
});

describe('reducer properties', () => {
  // A hand's worth of messages in table_seq order, ending with a snapshot of the highest table_seq.
  const stream: ReducibleMessage[] = [
    seedCommit(1),
    tableState(2, { phase: 'seeding', hero: { seat: 2, cards: [] } }),
    holeCards(3, ['As', 'Kd']),
    tableState(4),
    playerAction(5, 1, 'call'),
    playerAction(6, 3, 'fold'),
    yourTurn(7),
    tableState(8, { actor: 2, hero: { seat: 2, cards: ['As', 'Kd'], valid_actions: VALID, turn_token: TOKEN } }),
    playerAction(9, 2, 'call'),
    streetRevealed(10, ['2c', '7d', 'Jh']),
    tableState(11, {
      street: 'flop',
      board: ['2c', '7d', 'Jh'],
      seats: [seat(1), seat(2), seat(3, { folded: true }), emptySeat(4)],
    }),
  ];
  const last = stream.at(-1) as Extract<ReducibleMessage, { type: 'table_state' }>;

  it('any permutation with duplicates of a stream converges to the last snapshot', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: stream.length - 1 }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (dupIdx, seed) => {
          const messages = [...stream, ...dupIdx.map((i) => stream[i]!)];
          const shuffled = fc.sample(fc.shuffledSubarray(messages, { minLength: messages.length }), {
            numRuns: 1,
            seed,
          })[0]!;
          const view = shuffled.reduce((v, m) => reduceTable(v, m).view, initialTableView(TABLE));
          expect(view.state).toEqual(last);
          expect(view.lastTableSeq).toBe(11);
        },
      ),
      { seed: 20261129, numRuns: 300 },
    );
  });

  it('the watermark never decreases and a repeated message changes nothing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: stream.length - 1 }), { minLength: 1, maxLength: 40 }),
        (order) => {
          let view = initialTableView(TABLE);
          for (const i of order) {
            const before = view.lastTableSeq;
            view = reduceTable(view, stream[i]!).view;
            expect(view.lastTableSeq).toBeGreaterThanOrEqual(before);
            const again = reduceTable(view, stream[i]!);
            expect(again.applied).toBe(false);
            expect(again.view).toBe(view);
          }
        },
      ),
      { seed: 7, numRuns: 300 },
    );
  });

  it('in-order delivery with duplicates keeps every same-hand fold on legacy snapshots', () => {
    const legacyStream = stream.map((m) => (m.type === 'table_state' ? legacy(m) : m));
    fc.assert(
      fc.property(fc.array(fc.nat(legacyStream.length - 1), { maxLength: 20 }), (dups) => {
        const withDups = [...legacyStream.map((m, i) => [m, ...dups.filter((d) => d === i).map(() => m)])].flat();
        const view = withDups.reduce((v, m) => reduceTable(v, m).view, initialTableView(TABLE));
        expect(foldedSeats(view)).toEqual([3]);
      }),
      { seed: 11, numRuns: 100 },
    );
  });

  it('a resync converges to its snapshot from any prior view', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(stream.length - 1), { maxLength: 15 }), (prefix) => {
        const prior = prefix.reduce((v, i) => reduceTable(v, stream[i]!).view, initialTableView(TABLE));
        const snapshot = tableState(50, { street: 'turn', board: ['2c', '7d', 'Jh', 'Qs'] });
        const view = reduceTable(
          prior,
          resync(50, snapshot, stream.filter((m) => m.type !== 'table_state') as never),
        ).view;
        expect(view.state).toEqual(snapshot);
        expect(view.lastTableSeq).toBe(50);
      }),
      { seed: 5, numRuns: 100 },
    );
  });
});
