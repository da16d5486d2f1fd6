import { initialTableView, reduceTable, type TableView } from '@felt/client';
import type { ResyncResponse, TableEvent, TableState } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import {
  blindHand,
  dealingView,
  emptySeat,
  HAND,
  playerAction,
  seat,
  STUD_VARIANT,
  TABLE,
  tableState,
  validActions,
} from '../test-support/fixtures.js';
import { toTableModel } from './table-model.js';

function feed(...messages: (TableState | TableEvent | ResyncResponse)[]): TableView {
  let view = initialTableView(TABLE);
  for (const m of messages) view = reduceTable(view, m).view;
  return view;
}

const inHand = (n: number, over: Parameters<typeof seat>[1] = {}) =>
  seat(n, { in_hand: true, folded: false, all_in: false, cards: [null, null], ...over });

const handState = (over: Partial<TableState> = {}): TableState =>
  tableState({
    hand_id: HAND,
    hand_seq: 5,
    phase: 'betting',
    street: 'preflop',
    button: 1,
    small_blind: 1,
    big_blind: 2,
    seats: [inHand(1, { bet: 10, stack: 990 }), inHand(2, { bet: 20, stack: 980, cards: ['As', 'Kd'] }), emptySeat(3)],
    pot_total: 30,
    current_bet: 20,
    actor: 1,
    deadline: 1_764_400_030_000,
    time_bank_ms: 60_000,
    hero: { seat: 2, cards: ['As', 'Kd'] },
    seed_commit: `sha256:${'1'.repeat(64)}`,
    ...over,
  });

describe('toTableModel', () => {
  it('Short Deck: the button blind (its only blind) has no SB/BB badge and is named the button blind', () => {
    const sd = handState({
      game: 'shortdeck',
      variant: { ...handState().variant, game: 'shortdeck' },
      small_blind: null,
      big_blind: 1,
    });
    const m = toTableModel(feed(sd))!;
    expect(m.seats.find((s) => s.seat === 1)!.blind).toBe('BUTTON_BLIND');
    expect(m.seats.every((s) => s.blind !== 'BB' && s.blind !== 'SB')).toBe(true);
  });

  it('a standing notice: the room closing, or bots the house bankroll will not stake', () => {
    expect(toTableModel(feed(handState()))!.notice).toBeNull();
    expect(toTableModel(feed(handState({ closing: true })))!.notice).toMatch(/room is closing/);
    expect(toTableModel(feed(handState({ bots_blocked: 'bankroll_empty' })))!.notice).toMatch(/bankroll is empty/);
  });

  it('is null before the first snapshot', () => {
    expect(toTableModel(initialTableView(TABLE))).toBeNull();
  });

  it("maps a player's snapshot: hero at the bottom, own cards up, opponents' face down, blinds and button", () => {
    const m = toTableModel(feed(handState()))!;
    expect(m.role).toBe('player');
    expect(m.game.title).toBe("No-Limit Hold'em");
    expect(m.game.stakes).toBe('10/20');
    expect(m.street).toBe('Preflop');
    const hero = m.seats.find((s) => s.isHero)!;
    expect(hero.seat).toBe(2);
    expect(hero.plate.y).toBeGreaterThan(80);
    expect(hero.cards.map((c) => c.code)).toEqual(['As', 'Kd']);
    const villain = m.seats.find((s) => s.seat === 1)!;
    expect(villain.cards).toEqual([
      { code: null, up: false },
      { code: null, up: false },
    ]);
    expect(villain.isButton).toBe(true);
    expect(villain.blind).toBe('SB');
    expect(villain.isActor).toBe(true);
    expect(m.seats.find((s) => s.seat === 2)!.blind).toBe('BB');
    expect(m.seats.find((s) => s.seat === 3)!.empty).toBe(true);
    expect(m.clock).toEqual({ deadline: 1_764_400_030_000, timeBankMs: 60_000 });
    expect(m.turn).toBeNull();
  });

  it('takes the turn from the snapshot hero (a resync during the turn keeps token and deadline)', () => {
    const state = handState({
      actor: 2,
      hero: { seat: 2, cards: ['As', 'Kd'], valid_actions: validActions(), turn_token: 'tok_abcdefghijklmnop' },
    });
    const m = toTableModel(feed(state))!;
    expect(m.turn?.turnToken).toBe('tok_abcdefghijklmnop');
    expect(m.turn?.deadline).toBe(1_764_400_030_000);
  });

  it('shows a fold learned from player_action when a snapshot omits folded, and the last action per street', () => {
    const view = feed(
      handState({ table_seq: 10 }),
      playerAction(1, 'call', 11, { amount: 10 }),
      playerAction(2, 'check', 12),
      {
        type: 'street_revealed',
        table_id: TABLE,
        table_seq: 13,
        hand_id: HAND,
        hand_seq: 8,
        street: 'flop',
        street_index: 1,
        board: ['2c', '7d', 'Jh'],
        up_cards: [],
      },
      playerAction(2, 'bet', 14, { amount: 40, to: 40 }),
      playerAction(1, 'fold', 15),
      handState({
        table_seq: 16,
        street: 'flop',
        board: ['2c', '7d', 'Jh'],
        seats: [
          seat(1, { in_hand: true, cards: [null, null], stack: 980 }), // an older snapshot: no `folded`
          inHand(2, { bet: 40, stack: 940, cards: ['As', 'Kd'] }),
          emptySeat(3),
        ],
        actor: null,
      }),
    );
    const m = toTableModel(view)!;
    expect(m.board).toEqual(['2c', '7d', 'Jh']);
    expect(m.seats.find((s) => s.seat === 1)!.folded).toBe(true);
    expect(m.seats.find((s) => s.seat === 2)!.lastAction).toBe('Bet 40');
  });

  it('gives a spectator no hero and no turn, only face-down cards', () => {
    const spectator = handState({ hero: undefined as never, seats: [inHand(1), inHand(2), emptySeat(3)] });
    delete (spectator as { hero?: unknown }).hero;
    const m = toTableModel(feed(spectator))!;
    expect(m.role).toBe('spectator');
    expect(m.hero).toBeNull();
    expect(m.turn).toBeNull();
    expect(m.seats.flatMap((s) => s.cards).every((c) => c.code === null)).toBe(true);
  });

  it('draws Stud up and down cards with no board', () => {
    const stud = handState({
      game: 'stud',
      variant: STUD_VARIANT,
      street: 'third',
      board: ['2c'],
      seats: [
        inHand(1, { cards: [null, null, 'Kh'], up: [false, false, true] }),
        inHand(2, { cards: ['As', 'Ad', '3c'], up: [false, false, true] }),
        emptySeat(3),
      ],
      hero: { seat: 2, cards: ['As', 'Ad', '3c'] },
    });
    const m = toTableModel(feed(stud))!;
    expect(m.game.family).toBe('stud');
    expect(m.board).toEqual([]);
    expect(m.street).toBe('3rd street');
    expect(m.seats.find((s) => s.seat === 1)!.cards).toEqual([
      { code: null, up: false },
      { code: null, up: false },
      { code: 'Kh', up: true },
    ]);
    expect(m.seats.find((s) => s.seat === 2)!.cards.map((c) => c.up)).toEqual([false, false, true]);
  });

  it('labels the current and next game of a mix', () => {
    const mixed = handState({
      game: 'horse',
      variant: { ...tableState().variant, limit: 'fl' },
      rotation: {
        format: 'horse',
        next: { ...tableState().variant, game: 'omaha8', limit: 'fl' },
        hands_played: 4,
        hands_per_variant: 6,
      },
    });
    const m = toTableModel(feed(mixed))!;
    expect(m.game.room).toBe('HORSE');
    expect(m.game.rotation).toEqual({ current: "FL Hold'em", next: 'FL Omaha Hi-Lo', handsLeft: 2 });
  });

  it('builds the showdown: per-pot winners with hand names and both halves of a hi-lo pot', () => {
    const base = handState({ game: 'omaha8', variant: { ...tableState().variant, game: 'omaha8', limit: 'pl' } });
    const view = feed(
      base,
      {
        type: 'showdown',
        table_id: TABLE,
        table_seq: 20,
        hand_id: HAND,
        hand_seq: 30,
        reveal_timing: 'showdown',
        shown: [
          { seat: 1, cards: ['Ah', '2h', 'Kc', 'Qd'], reason: 'last_aggressor' },
          { seat: 2, cards: ['As', 'Kd', '3s', '4s'], reason: 'winner_required' },
        ],
        mucked: [],
      },
      {
        type: 'hand_result',
        table_id: TABLE,
        table_seq: 21,
        hand_id: HAND,
        hand_seq: 31,
        pots: [
          {
            index: 0,
            amount: 200,
            rake: 0,
            eligible: [1, 2],
            winners: [
              { seat: 1, amount: 100, side: 'high' },
              { seat: 2, amount: 100, side: 'low' },
            ],
          },
        ],
        uncalled: [],
        rake: 0,
        players: [
          { seat: 1, net: 0, stack: 1000 },
          { seat: 2, net: 0, stack: 1000 },
        ],
        hands: [
          { seat: 1, names: ['Flush, ace high', null] },
          { seat: 2, names: ['Ace high', '5-4-3-2-A'] },
        ],
      },
    );
    const sd = toTableModel(view)!.showdown!;
    expect(sd.hiLo).toBe(true);
    expect(sd.pots[0]!.label).toBe('Main pot');
    expect(sd.pots[0]!.noLow).toBe(false);
    expect(sd.pots[0]!.winners).toEqual([
      { seat: 1, name: 'Player1', amount: 100, side: 'high', handName: 'Flush, ace high' },
      { seat: 2, name: 'Player2', amount: 100, side: 'low', handName: '5-4-3-2-A' },
    ]);
    expect(sd.shown.map((s) => s.seat)).toEqual([1, 2]);
    const m = toTableModel(view)!;
    expect(m.seats.find((s) => s.seat === 1)!.cards.map((c) => c.code)).toEqual(['Ah', '2h', 'Kc', 'Qd']);
    expect(m.seats.find((s) => s.seat === 1)!.won).toBe(100);
  });

  it('writes the hand log with names: streets, decisions and winners', () => {
    const view = feed(
      handState({ table_seq: 10 }),
      {
        type: 'hand_started',
        table_id: TABLE,
        table_seq: 11,
        hand_id: HAND,
        hand_seq: 2,
        variant: tableState().variant,
        button: 1,
        seats: [1, 2],
        forced_bets: [
          { seat: 1, kind: 'small_blind', amount: 10, all_in: false },
          { seat: 2, kind: 'big_blind', amount: 20, all_in: false },
        ],
      },
      playerAction(1, 'raise', 12, { amount: 50, to: 60 }),
      playerAction(2, 'fold', 13, { timeout: true }),
      {
        type: 'hand_result',
        table_id: TABLE,
        table_seq: 14,
        hand_id: HAND,
        hand_seq: 9,
        pots: [
          { index: 0, amount: 40, rake: 0, eligible: [1], winners: [{ seat: 1, amount: 40, side: 'uncontested' }] },
        ],
        uncalled: [{ seat: 1, amount: 40 }],
        rake: 0,
        players: [
          { seat: 1, net: 20, stack: 1010 },
          { seat: 2, net: -20, stack: 980 },
        ],
        hands: [],
      },
    );
    expect(toTableModel(view)!.log.map((l) => l.text)).toEqual([
      'Player1 posts 10',
      'Player2 posts 20',
      'Player1: Raise to 60',
      'Player2: Fold (timed out)',
      'Player1 wins 40 from main pot',
    ]);
  });

  it('a voided hand ends with the notice in the hand log, and no turn is left', () => {
    const view = feed(handState({ table_seq: 10, actor: 2 }), playerAction(1, 'call', 11, { amount: 10 }), {
      type: 'hand_voided',
      table_id: TABLE,
      table_seq: 12,
      hand_id: HAND,
      hand_seq: 0,
      reason: 'room_closed',
      stacks: [
        { seat: 1, stack: 1000 },
        { seat: 2, stack: 1000 },
      ],
    });
    const m = toTableModel(view)!;
    expect(m.log.at(-1)).toMatchObject({ kind: 'result', text: 'Hand voided: stacks returned' });
    expect(m.voidedHandId).toBe(HAND);
    expect(m.voidedText).toBe('Hand voided: stacks returned');
    expect(m.turn).toBeNull();
  });

  it('clears the previous hand when a new hand_id arrives', () => {
    const next = '1b7f1c1e-2a8e-4d55-9b9a-1c2d3e4f5a6b';
    const view = feed(
      handState(),
      playerAction(1, 'fold', 11),
      handState({ table_seq: 12, hand_id: next, seats: [inHand(1), inHand(2, { cards: ['2c', '3c'] }), emptySeat(3)] }),
    );
    const m = toTableModel(view)!;
    expect(m.handId).toBe(next);
    expect(m.seats.find((s) => s.seat === 1)!.folded).toBe(false);
    expect(m.seats.find((s) => s.seat === 1)!.lastAction).toBeNull();
  });

  it('engine-blind: the hero’s cards come from the player’s device, for the hand on the table only', () => {
    // No snapshot of a blind hand carries the hero's cards: the seat and `hero` have none.
    const blind = handState({
      seats: [inHand(1), inHand(2), emptySeat(3)],
      hero: { seat: 2, cards: [] },
      dealing: dealingView({ blind: blindHand({ phase: 'play' }) }),
    });
    const mine = { handId: HAND, holeCards: ['Qh', 'Jc'], audit: null };
    const heroCards = (m: ReturnType<typeof toTableModel>) => m!.seats.find((s) => s.isHero)!.cards.map((c) => c.code);
    expect(heroCards(toTableModel(feed(blind), mine))).toEqual(['Qh', 'Jc']);
    expect(toTableModel(feed(blind), mine)!.hero!.cards.map((c) => c.code)).toEqual(['Qh', 'Jc']);
    expect(
      toTableModel(feed(blind), mine)!
        .seats.find((s) => s.seat === 1)!
        .cards.map((c) => c.code),
    ).toEqual([null, null]);
    // Not opened yet, or known only for another hand: face down.
    expect(heroCards(toTableModel(feed(blind)))).toEqual([null, null]);
    expect(heroCards(toTableModel(feed(blind), { ...mine, holeCards: [] }))).toEqual([null, null]);
    expect(heroCards(toTableModel(feed(blind), { ...mine, handId: 'another' }))).toEqual([null, null]);
    // A hand the table deals standard draws what the table sent, whatever the device says.
    expect(heroCards(toTableModel(feed(handState()), mine))).toEqual(['As', 'Kd']);
    const downgraded = handState({ dealing: dealingView({ mode: 'standard', blind: null }) });
    expect(heroCards(toTableModel(feed(downgraded), mine))).toEqual(['As', 'Kd']);
    // Another engine-blind hand's view (the snapshot's blind is of an earlier hand): face down.
    const earlier = handState({
      seats: [inHand(1), inHand(2), emptySeat(3)],
      hero: { seat: 2, cards: [] },
      dealing: dealingView({ blind: blindHand({ hand_id: '1b7f1c1e-2a8e-4d55-9b9a-1c2d3e4f5a6b' }) }),
    });
    expect(heroCards(toTableModel(feed(earlier), mine))).toEqual([null, null]);
    expect(toTableModel(feed(blind), mine)!.dealing).toMatchObject({ engineBlind: true, blindHand: true });
    expect(toTableModel(feed(handState()))!.dealing).toBeNull();
  });

  it('an engine-blind failure voids the hand naming the step and the seats it blames', () => {
    const view = feed(handState({ table_seq: 10, phase: 'dealing', actor: null }), {
      type: 'hand_voided',
      table_id: TABLE,
      table_seq: 11,
      hand_id: HAND,
      hand_seq: 0,
      reason: 'engine_blind_failed',
      blind_failure: { reason: 'timeout', step: 'shuffle', seats: [1] },
      stacks: [
        { seat: 1, stack: 1000 },
        { seat: 2, stack: 1000 },
      ],
    });
    const m = toTableModel(view)!;
    const text = 'Hand voided: the shuffle from Player1 did not arrive in time. Every stake was returned.';
    expect(m.log.at(-1)).toMatchObject({ kind: 'result', text });
    expect(m.voidedText).toBe(text);
    expect(m.voidedHandId).toBe(HAND);
  });
});
