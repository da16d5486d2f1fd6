import { describe, expect, it } from 'vitest';
import { buildReplay, type HandDetail } from './replay.js';

const detail: HandDetail = {
  hand_id: '0b7f1c1e-2a8e-4d55-9b9a-1c2d3e4f5a6b',
  session_id: '6f9619ff-8b86-4011-b42d-00c04fc964ff',
  hand_no: 3,
  game: 'holdem',
  limit: 'nl',
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
      final_stack: 160,
      net: -40,
      won: 0,
      folded: false,
      cards: [null, null],
      shown: false,
    },
    {
      seat: 2,
      user_id: 'b',
      name: 'bob',
      starting_stack: 200,
      final_stack: 240,
      net: 40,
      won: 80,
      folded: false,
      cards: ['As', 'Kd'],
      shown: false,
    },
  ],
  actions: [
    { seq: 1, type: 'post', seat: 1, kind: 'small_blind', amount: 1 },
    { seq: 2, type: 'post', seat: 2, kind: 'big_blind', amount: 2 },
    { seq: 3, type: 'deal_hole', seat: 1, street: 0, cards: [null, null] },
    { seq: 4, type: 'deal_hole', seat: 2, street: 0, cards: ['As', 'Kd'] },
    { seq: 5, type: 'street', street: 0, name: 'preflop' },
    { seq: 6, type: 'raise', seat: 1, to: 6, amount: 5 },
    { seq: 7, type: 'raise', seat: 2, to: 40, amount: 38 },
    { seq: 8, type: 'call', seat: 1, amount: 34 },
    { seq: 9, type: 'deal_board', street: 1, cards: ['2c', '7d', 'Jh'] },
    { seq: 10, type: 'street', street: 1, name: 'flop' },
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
    { seq: 19, type: 'something_new' },
  ],
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
