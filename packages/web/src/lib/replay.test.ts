import { describe, expect, it } from 'vitest';
import { gameIds, getGameRules, shownCards, simulateHand, viewOperationLog, type Hand } from '@felt/engine';
import { toHandAction, type HandAction, type HandDetail } from '@felt/protocol';
import { buildReplay, voidedReasonText, voidedText } from './replay.js';

const detail: HandDetail = {
  hand_id: '0b7f1c1e-2a8e-4d55-9b9a-1c2d3e4f5a6b',
  session_id: '6f9619ff-8b86-4011-b42d-00c04fc964ff',
  hand_no: 3,
  game: 'holdem',
  limit: 'nl',
  blinds: { smallBlind: 1, bigBlind: 2 },
  button: 1,
  started_at: '2026-01-01T00:00:00.000Z',
  ended_at: '2026-01-01T00:01:00.000Z',
  viewer_seat: 2,
  board: ['2c', '7d', 'Jh', 'Qs', '3h'],
  pot_total: 80,
  rake: 0,
  players: [
    {
      seat: 1,
      user_id: 'a',
      name: 'alice',
      starting_stack: 200,
      contributed: 40,
      returned: 0,
      won: 0,
      rake_paid: 0,
      final_stack: 160,
      net: -40,
      folded: false,
      cards: [null, null],
      shown: false,
    },
    {
      seat: 2,
      user_id: 'b',
      name: 'bob',
      starting_stack: 200,
      contributed: 40,
      returned: 0,
      won: 80,
      rake_paid: 0,
      final_stack: 240,
      net: 40,
      folded: false,
      cards: ['As', 'Kd'],
      shown: false,
    },
  ],
  actions: [
    { seq: 1, type: 'post', seat: 1, kind: 'small_blind', amount: 1, all_in: false },
    { seq: 2, type: 'post', seat: 2, kind: 'big_blind', amount: 2, all_in: false },
    { seq: 3, type: 'deal_hole', seat: 1, street: 0, cards: [null, null] },
    { seq: 4, type: 'deal_hole', seat: 2, street: 0, cards: ['As', 'Kd'] },
    { seq: 5, type: 'street', street: 0, name: 'preflop', actor: 1 },
    { seq: 6, type: 'raise', seat: 1, to: 6, amount: 5, all_in: false, full: true },
    { seq: 7, type: 'raise', seat: 2, to: 40, amount: 38, all_in: false, full: true },
    { seq: 8, type: 'call', seat: 1, amount: 34, all_in: false },
    { seq: 9, type: 'deal_board', street: 1, cards: ['2c', '7d', 'Jh'] },
    { seq: 10, type: 'street', street: 1, name: 'flop', actor: 1 },
    { seq: 11, type: 'check', seat: 1 },
    { seq: 12, type: 'check', seat: 2 },
    { seq: 13, type: 'deal_board', street: 2, cards: ['Qs'] },
    { seq: 14, type: 'deal_board', street: 3, cards: ['3h'] },
    { seq: 15, type: 'muck', seat: 1, reason: 'auto_muck_loser' },
    { seq: 16, type: 'show', seat: 2, cards: ['As', 'Kd'], reason: 'winner_required' },
    { seq: 17, type: 'award', pot: 0, amount: 80, rake: 0, winners: [{ seat: 2, side: 'high', amount: 80 }] },
    {
      seq: 18,
      type: 'hand_end',
      rake: 0,
      stacks: [
        { seat: 1, stack: 160 },
        { seat: 2, stack: 240 },
      ],
    },
    // An operation type this client does not know (a newer lobby's log).
    { seq: 19, type: 'something_new' } as unknown as HandAction,
  ],
  pots: [{ index: 0, amount: 80, rake: 0, eligible: [1, 2], contested: true, winners: [] }],
  fairness: { seed_commit: null, server_seed: null, client_seeds: [], deck_seed: null, version: null, deck: null },
};

describe('buildReplay', () => {
  const frames = buildReplay(detail);

  it('has a starting frame and one frame per operation', () => {
    expect(frames).toHaveLength(detail.actions.length + 1);
    expect(frames[0]!.seats.map((s) => s.stack)).toEqual([200, 200]);
  });

  it('moves chips: bets in front of seats, swept into the pot at each street', () => {
    const afterCall = frames[8]!;
    expect(afterCall.seats.map((s) => s.bet)).toEqual([40, 40]);
    expect(afterCall.seats.map((s) => s.stack)).toEqual([160, 160]);
    const flop = frames[10]!;
    expect(flop.pot).toBe(80);
    expect(flop.seats.map((s) => s.bet)).toEqual([0, 0]);
    expect(flop.street).toBe('Flop');
    expect(flop.board).toEqual(['2c', '7d', 'Jh']);
  });

  it('keeps unseen cards hidden and pays the winner; the final stacks match the record', () => {
    expect(frames[4]!.seats[0]!.cards).toEqual([null, null]);
    expect(frames[4]!.seats[1]!.cards).toEqual(['As', 'Kd']);
    const award = frames[17]!;
    expect(award.caption).toBe('bob wins 80 from the main pot');
    expect(award.pot).toBe(0);
    expect(frames[18]!.seats.map((s) => s.stack)).toEqual([160, 240]);
    expect(frames[19]!.caption).toBe('something new');
  });

  it('writes captions a player can follow', () => {
    expect(frames[1]!.caption).toBe('alice posts the small blind (1)');
    expect(frames[7]!.caption).toBe('bob raises to 40');
    expect(frames[16]!.caption).toBe('bob shows A♠ K♦');
  });
});

/** The cards dealt face up to `seat`. */
function upCards(hand: Hand, seat: number): string[] {
  return hand.operations.flatMap((op) =>
    op.type === 'deal_hole' && op.seat === seat ? op.cards.filter((_, i) => op.visibility[i] === 'up') : [],
  );
}

describe('buildReplay over the engine’s view of real hands', () => {
  /** A hand as the lobby serves it to `viewer` (a spectator's view for null), built the lobby's way. */
  function detailOf(hand: Hand, viewer: number | null): HandDetail {
    return {
      ...detail,
      hand_id: hand.handId,
      game: hand.setup.game,
      limit: hand.setup.limit,
      button: hand.setup.button,
      viewer_seat: viewer ?? 0,
      board: [...hand.boardCards],
      players: hand.setup.players.map((p) => ({
        seat: p.seat,
        user_id: p.id,
        name: p.name ?? p.id,
        starting_stack: p.stack,
        contributed: 0,
        returned: 0,
        won: 0,
        rake_paid: 0,
        final_stack: 0,
        net: 0,
        folded: false,
        cards: [],
        shown: false,
      })),
      actions: viewOperationLog(hand.operations, viewer).map((v, seq) => toHandAction(seq, v)),
      pots: [],
    };
  }

  const hands = gameIds().flatMap((id) => {
    const rules = getGameRules(id);
    return Array.from(
      { length: 8 },
      (_, i) =>
        simulateHand({
          rules,
          limit: rules.defaultLimit,
          players: id === '27td' ? 6 : { min: 2, max: rules.maxSeats },
          rake: true,
          seed: `replay-${id}-${i}`,
        }).hand,
    );
  });

  it('shows each viewer exactly the cards the engine lets them see, and ends on the engine’s stacks', () => {
    let unseen = 0;
    for (const hand of hands) {
      const shown = shownCards(hand.operations);
      // A voluntary show may follow the hand's end.
      const end = hand.operations.find((op) => op.type === 'hand_end');
      if (end?.type !== 'hand_end') throw new Error('no hand_end');
      for (const viewer of [null, ...hand.setup.players.map((p) => p.seat)]) {
        const frames = buildReplay(detailOf(hand, viewer));
        expect(frames).toHaveLength(hand.operations.length + 1);
        const last = frames.at(-1)!;
        expect(last.seats.map((s) => [s.seat, s.stack])).toEqual(end.stacks.map((s) => [s.seat, s.stack]));
        for (const s of last.seats) {
          const mine = hand.holeCards(s.seat);
          const showed = shown.get(s.seat);
          if (showed !== undefined) {
            // The hand shown is the hand.
            expect([...s.cards].sort()).toEqual([...showed].sort());
          } else if (s.seat === viewer) {
            expect([...s.cards].sort()).toEqual([...mine].sort());
          } else {
            // Another seat's cards: only its up cards, in place; the rest face down.
            expect(s.cards).toHaveLength(mine.length);
            for (const c of s.cards) {
              if (c === null) unseen++;
              else expect(upCards(hand, s.seat)).toContain(c);
            }
          }
        }
      }
    }
    expect(unseen).toBeGreaterThan(0);
  });
});

describe('voided hands', () => {
  it('say why and that there is no result', () => {
    expect(voidedText({ voided_reason: 'checkpoint_lost' })).toBe(
      'Voided: the table lost its state during the hand. No result; every stack went back to its start.',
    );
    expect(voidedText({})).toBeNull();
    expect(voidedReasonText('unreadable')).toBe('the table could not replay the hand');
    expect(voidedReasonText('something_newer')).toBe('something newer');
  });

  it('replay as the table before the deal: nothing happened in them', () => {
    const frames = buildReplay({ ...detail, actions: [], pots: [], voided_reason: 'checkpoint_lost' });
    expect(frames).toHaveLength(1);
    expect(frames[0]!.seats.map((s) => s.stack)).toEqual([200, 200]);
  });
});
