/**
 * Blind dealing (`HandSetup.dealing: 'blind'`): the engine deals deck indices only, takes the board as
 * input and scores only the hands shown at a blind showdown. The oracle is the standard hand on the same
 * deck: fed that deck's cards, a blind hand must settle exactly as the standard one does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectCode } from '../../test/helpers.js';
import { initialDeck, type Card } from '../cards.js';
import { toOhh } from '../export/ohh.js';
import { toPhh } from '../export/phh.js';
import { getGameRules } from '../games/registry.js';
import { SeededRng, randomUnit, type Rng } from '../rng.js';
import { playOut, simulateSetup } from '../sim/simulate.js';
import { Table } from '../table/table.js';
import { blindDealPlan } from './blind-plan.js';
import { Hand, HandPhase } from './hand.js';
import { isBlindInput, isDecision, type Operation } from './operations.js';
import { standardForcedBets, type HandSetup } from './setup.js';

const BLIND = ['holdem', 'omaha', 'omaha5', 'omaha8', 'shortdeck'] as const;
const LIMITS = ['nl', 'pl', 'fl'] as const;

/** The blind twin of a standard setup: no deck, no deck seed. */
function blindOf(setup: HandSetup): HandSetup {
  const { deckSeed: _seed, ...rest } = setup;
  return { ...rest, dealing: 'blind', deck: [] };
}

/** A random standard setup of a blind-capable game, with its deck. */
function randomSetup(game: string, limit: (typeof LIMITS)[number], seed: string): HandSetup {
  const rng = new SeededRng(seed);
  const rules = getGameRules(game);
  return simulateSetup({ rules, limit, players: { min: 2, max: 9 }, rake: true, seed, randomRules: true }, rng).setup;
}

function cardsAt(deck: readonly Card[], indices: readonly number[]): Card[] {
  return indices.map((i) => deck[i]!);
}

/** The real hole cards of `seat` in a blind hand dealt from `deck` (the indices its deal_hole names). */
function realHole(hand: Hand, deck: readonly Card[], seat: number): Card[] {
  const out: Card[] = [];
  for (const op of hand.operations)
    if (op.type === 'deal_hole' && op.seat === seat) out.push(...cardsAt(deck, op.indices));
  return out;
}

function applyDecision(hand: Hand, op: Operation): void {
  const meta = 'timeout' in op && op.timeout ? { timeout: true } : {};
  switch (op.type) {
    case 'fold':
      hand.fold(op.seat, meta);
      return;
    case 'check':
      hand.check(op.seat, meta);
      return;
    case 'call':
      hand.call(op.seat);
      return;
    case 'bet':
      hand.bet(op.seat, op.to);
      return;
    case 'raise':
      hand.raise(op.seat, op.to);
      return;
    default:
      throw new Error(`unexpected decision ${op.type}`);
  }
}

/** What to do at a blind showdown when `seat` is to show or muck. */
type ShowdownChoice = (hand: Hand, seat: number) => 'show' | 'muck' | 'timeout' | 'handled';

/** Reveals the board from `deck` and answers the showdown until the hand waits for a betting decision. */
function feed(hand: Hand, deck: readonly Card[], choose: ShowdownChoice): void {
  for (;;) {
    const pending = hand.pendingBoard;
    if (pending !== null) {
      expect(hand.phase).toBe(HandPhase.DEALING);
      expect(hand.actor).toBeNull();
      hand.revealBoard(cardsAt(deck, pending.indices));
      continue;
    }
    if (hand.phase === HandPhase.SHOWDOWN && hand.actor !== null) {
      const seat = hand.actor;
      const choice = choose(hand, seat);
      if (choice === 'show') hand.showBlind(seat, realHole(hand, deck, seat));
      else if (choice === 'muck') hand.muckBlind(seat);
      else if (choice === 'timeout') hand.applyTimeout();
      continue;
    }
    return;
  }
}

/** Plays a blind hand with the decisions of a finished standard hand, its deck fed in as the board. */
function playBlind(standard: Hand, choose: ShowdownChoice, onStep?: (hand: Hand) => void): Hand {
  const deck = standard.setup.deck;
  const blind = new Hand(blindOf(standard.setup));
  const step = (): void => {
    feed(blind, deck, choose);
    onStep?.(blind);
  };
  step();
  for (const op of standard.operations) {
    if (!isDecision(op)) continue;
    applyDecision(blind, op);
    step();
  }
  feed(blind, deck, choose);
  return blind;
}

/** A standard hand of a random blind-capable game, played out with random actions. */
function standardHand(game: string, limit: (typeof LIMITS)[number], seed: string): Hand {
  const setup = randomSetup(game, limit, seed);
  const hand = new Hand(setup);
  playOut(hand, new SeededRng(`${seed}/play`));
  return hand;
}

/** The log without reveals, hole cards reduced to their indices: what both dealings must share. */
function skeleton(ops: readonly Operation[]): unknown[] {
  return ops
    .filter((op) => op.type !== 'show' && op.type !== 'muck')
    .map((op) => (op.type === 'deal_hole' ? { seat: op.seat, street: op.street, indices: op.indices } : op));
}

function chips(hand: Hand): number {
  let total = 0;
  for (const p of hand.state().players) total += p.stack;
  return total + (hand.settlement?.rake.amount ?? 0);
}

const arbitraryHand = fc.record({
  game: fc.constantFrom(...BLIND),
  limit: fc.constantFrom(...LIMITS),
  seed: fc.integer({ min: 0, max: 1_000_000 }).map((n) => `blind-${n}`),
});

describe('blind dealing', { timeout: 120_000 }, () => {
  it('settles exactly like the standard hand on the same deck when every live player shows', () => {
    const seen = { showdowns: 0, runouts: 0, sidePots: 0, splits: 0 };
    fc.assert(
      fc.property(arbitraryHand, ({ game, limit, seed }) => {
        const standard = standardHand(game, limit, seed);
        const blind = playBlind(standard, () => 'show');
        const settlement = standard.settlement!;
        if (standard.operations.some((op) => op.type === 'show' && op.reason === 'all_in_runout')) seen.runouts++;
        if (settlement.showdown) seen.showdowns++;
        if (settlement.pots.length > 1) seen.sidePots++;
        if (settlement.pots.some((p) => p.winners.length > 1)) seen.splits++;
        expect(blind.isComplete).toBe(true);
        expect(blind.settlement).toEqual(standard.settlement);
        expect(blind.state().players.map((p) => p.stack)).toEqual(standard.state().players.map((p) => p.stack));
        expect(skeleton(blind.operations)).toEqual(skeleton(standard.operations));
        // Only the inputs reveal cards: no all-in runout show, and every show is a blind one.
        for (const op of blind.operations) {
          if (op.type === 'show') expect(op.reason).toBe('blind_show');
          if (op.type === 'deal_hole') expect(op).toMatchObject({ cards: [], unknown: true });
        }
      }),
      { seed: 20261204, numRuns: 250 },
    );
    // The runs must cover what can go wrong: showdowns, blind all-in runouts, side pots, split pots.
    expect(seen.showdowns).toBeGreaterThan(50);
    expect(seen.runouts).toBeGreaterThan(10);
    expect(seen.sidePots).toBeGreaterThan(10);
    expect(seen.splits).toBeGreaterThan(5);
  });

  it('deals the indices blindDealPlan names', () => {
    fc.assert(
      fc.property(arbitraryHand, ({ game, limit, seed }) => {
        const setup = randomSetup(game, limit, seed);
        const hand = new Hand(blindOf(setup));
        const plan = blindDealPlan(
          hand.rules,
          setup.players.map((p) => p.seat),
          setup.button,
        );
        const hole = hand.operations.flatMap((op) =>
          op.type === 'deal_hole' ? [{ seat: op.seat, indices: op.indices }] : [],
        );
        expect(hole).toEqual(plan.hole);
        // Check and call to the river: every street's board is asked for.
        const boards: { street: number; indices: readonly number[] }[] = [];
        while (!hand.isComplete) {
          const pending = hand.pendingBoard;
          if (pending !== null) {
            boards.push({ street: pending.street, indices: pending.indices });
            hand.revealBoard(cardsAt(setup.deck, pending.indices));
          } else if (hand.phase === HandPhase.SHOWDOWN) hand.muckBlind(hand.actor!);
          else if (hand.canCheck(hand.actor!)) hand.check(hand.actor!);
          else hand.call(hand.actor!);
        }
        expect(boards).toEqual(plan.board);
      }),
      { seed: 7, numRuns: 100 },
    );
  });

  it('conserves chips across random shows, mucks and timeouts; a muck leaves the pots it was contesting', () => {
    fc.assert(
      fc.property(arbitraryHand, fc.integer(), ({ game, limit, seed }, choiceSeed) => {
        const standard = standardHand(game, limit, seed);
        const rng: Rng = new SeededRng(`choices-${choiceSeed}`);
        let potsAtShowdown: { amount: number; eligible: readonly number[] }[] | null = null;
        const asked: number[] = [];
        const blind = playBlind(standard, (hand, seat) => {
          potsAtShowdown ??= hand.state().pots.map((p) => ({ amount: p.amount, eligible: [...p.eligible] }));
          asked.push(seat);
          const r = randomUnit(rng);
          if (r < 0.5) return 'show';
          const before = hand.state().pots;
          if (r < 0.85) hand.muckBlind(seat);
          else {
            expect(hand.timeoutDecision()).toEqual({ type: 'muck' });
            expect(hand.applyTimeout()).toEqual({ type: 'muck', seat, reason: 'blind_muck', timeout: true });
          }
          // The muck sweeps the seat out of every pot someone else still contests, and only those.
          expect(hand.state().pots.map((p) => p.eligible)).toEqual(
            before.map((p) => (p.eligible.length > 1 ? p.eligible.filter((s) => s !== seat) : p.eligible)),
          );
          return 'handled';
        });
        expect(blind.isComplete).toBe(true);
        expect(chips(blind)).toBe(chips(standard));
        const ops = blind.operations;
        const shown = new Set(ops.flatMap((op) => (op.type === 'show' ? [op.seat] : [])));
        const mucked = new Set(ops.flatMap((op) => (op.type === 'muck' ? [op.seat] : [])));
        for (const op of ops) {
          if (op.type === 'muck') expect(op.reason).toBe('blind_muck');
        }
        // Every seat asked answered once; timeouts are mucks.
        expect(asked.length).toBe(new Set(asked).size);
        expect(shown.size + mucked.size).toBe(asked.length);
        const settlement = blind.settlement!;
        if (potsAtShowdown === null) {
          // Nobody was asked: the hand ended by folds, or every pot had one contender.
          for (const pot of settlement.pots) expect(pot.contested).toBe(false);
          return;
        }
        const entry: { amount: number; eligible: readonly number[] }[] = potsAtShowdown;
        settlement.pots.forEach((pot, i) => {
          const eligible = entry[i]!.eligible;
          const shownHere = eligible.filter((s) => shown.has(s));
          for (const w of pot.winners) expect(eligible).toContain(w.seat);
          if (shownHere.length > 0) {
            // A pot any shown hand contests goes to shown hands only.
            for (const w of pot.winners) expect(shown.has(w.seat)).toBe(true);
          } else {
            // Everyone in it mucked or was never asked: its last contender takes it unshown.
            expect(pot.winners).toHaveLength(1);
            expect(pot.winners[0]!.side).toBe('uncontested');
          }
        });
      }),
      { seed: 99, numRuns: 250 },
    );
  });
});

// ---------------------------------------------------------------- examples and refusals

const HAND_ID = '00000000-0000-4000-8000-00000000b11d';

/** A blind hand of `game` (blinds 1/2, no rake) and the deck a test feeds it from. */
function blindHand(stacks: Record<number, number>, button: number, game = 'holdem'): { hand: Hand; deck: Card[] } {
  const rules = getGameRules(game);
  const seats = Object.keys(stacks)
    .map(Number)
    .sort((a, b) => a - b);
  const stakes = { smallBlind: 1, bigBlind: 2 };
  const setup: HandSetup = {
    handId: HAND_ID,
    game,
    limit: 'nl',
    stakes,
    button,
    players: seats.map((seat) => ({ seat, id: `p${seat}`, stack: stacks[seat]! })),
    forcedBets: standardForcedBets(rules, stakes, seats, button),
    deck: [],
    dealing: 'blind',
    rake: null,
  };
  return { hand: new Hand(setup), deck: initialDeck(rules.deck) };
}

/** Reveals boards and checks (or calls) until the blind showdown or the end. */
function checkDown(hand: Hand, deck: readonly Card[]): void {
  while (!hand.isComplete && hand.phase !== HandPhase.SHOWDOWN) {
    const pending = hand.pendingBoard;
    if (pending !== null) hand.revealBoard(cardsAt(deck, pending.indices));
    else if (hand.canCheck(hand.actor!)) hand.check(hand.actor!);
    else hand.call(hand.actor!);
  }
}

/** Seat 1 all-in for 20, seats 2 and 3 with a side pot of 80, checked down to the blind showdown. */
function sidePotShowdown(): { hand: Hand; deck: Card[] } {
  const { hand, deck } = blindHand({ 1: 20, 2: 100, 3: 100 }, 3);
  hand.raise(3, 60);
  hand.call(1);
  hand.call(2);
  checkDown(hand, deck);
  return { hand, deck };
}

/** Throws unless `fn` fails with `code` and leaves the hand exactly as it was. */
function refused(hand: Hand, fn: () => unknown, code: string): void {
  const log = JSON.stringify(hand.toJSON());
  const state = hand.state();
  const pending = hand.pendingBoard;
  const queue = hand.showdownQueue;
  expectCode(fn, code);
  expect(JSON.stringify(hand.toJSON())).toBe(log);
  expect(hand.state()).toEqual(state);
  expect(hand.pendingBoard).toEqual(pending);
  expect(hand.showdownQueue).toEqual(queue);
}

describe('blind showdown', () => {
  it('asks in reveal order; a muck leaves contested pots, and the last contender wins unshown', () => {
    const { hand } = sidePotShowdown();
    expect(hand.phase).toBe(HandPhase.SHOWDOWN);
    expect(hand.state().pots).toEqual([
      { amount: 60, eligible: [1, 2, 3] },
      { amount: 80, eligible: [2, 3] },
    ]);
    // No bet on the river: the first live seat after the button shows first.
    expect(hand.showdownQueue).toEqual([1, 2, 3]);
    expect(hand.actor).toBe(1);
    expect(hand.validActions()).toMatchObject({ seat: 1, showdown: { cards: 2 }, fold: false, check: false });
    hand.muckBlind(1);
    expect(hand.state().pots.map((p) => p.eligible)).toEqual([
      [2, 3],
      [2, 3],
    ]);
    hand.muckBlind(2);
    // Seat 3 is the last contender of both pots: it is not asked, and wins them without showing.
    expect(hand.isComplete).toBe(true);
    expect(hand.operations.some((op) => op.type === 'show')).toBe(false);
    expect(hand.settlement!.pots.map((p) => p.winners)).toEqual([
      [{ seat: 3, side: 'uncontested', gross: 60, net: 60 }],
      [{ seat: 3, side: 'uncontested', gross: 80, net: 80 }],
    ]);
    expect(hand.settlement!.hands).toEqual([]);
    expect(hand.state().players.map((p) => p.stack)).toEqual([0, 40, 180]);
  });

  it('keeps a mucked seat in a pot nobody else contests', () => {
    const { hand, deck } = sidePotShowdown();
    hand.showBlind(1, realHole(hand, deck, 1));
    hand.muckBlind(2);
    expect(hand.actor).toBe(3);
    hand.muckBlind(3);
    // Seat 3 gave up the main pot to seat 1; nobody else contests the side pot, so it stays seat 3's.
    expect(hand.isComplete).toBe(true);
    expect(hand.settlement!.pots.map((p) => p.winners.map((w) => [w.seat, w.side, w.gross]))).toEqual([
      [[1, 'uncontested', 60]],
      [[3, 'uncontested', 80]],
    ]);
    expect(hand.state().players.map((p) => p.stack)).toEqual([60, 40, 120]);
    expect(hand.state().players[0]!.hole).toEqual(realHole(hand, deck, 1));
    expect(hand.state().players[1]!.hole).toEqual([null, null]);
  });

  it('starts with the last aggressor, and a timeout mucks', () => {
    const { hand, deck } = blindHand({ 1: 100, 2: 100 }, 1);
    hand.call(1);
    hand.check(2);
    for (let street = 1; street <= 3; street++) {
      hand.revealBoard(cardsAt(deck, hand.pendingBoard!.indices));
      if (street < 3) {
        hand.check(2);
        hand.check(1);
      }
    }
    hand.bet(2, 10);
    hand.call(1);
    expect(hand.showdownQueue).toEqual([2, 1]);
    expect(hand.timeoutDecision()).toEqual({ type: 'muck' });
    const op = hand.applyTimeout();
    expect(op).toEqual({ type: 'muck', seat: 2, reason: 'blind_muck', timeout: true });
    // Seat 1 alone contests the pot now: it wins without showing.
    expect(hand.isComplete).toBe(true);
    expect(hand.state().players.map((p) => p.stack)).toEqual([112, 88]);
    expect(Hand.fromJSON(JSON.parse(JSON.stringify(hand.toJSON()))).toJSON()).toEqual(hand.toJSON());
  });

  it('takes the cards of a show after the hand as input', () => {
    const { hand, deck } = blindHand({ 1: 100, 2: 100, 3: 100 }, 1);
    hand.fold(1);
    hand.fold(2);
    expect(hand.isComplete).toBe(true);
    refused(hand, () => hand.show(3), 'cannot_show');
    const cards = realHole(hand, deck, 1);
    const op = hand.showBlind(1, cards);
    expect(op).toEqual({ type: 'show', seat: 1, cards, reason: 'voluntary' });
    refused(hand, () => hand.showBlind(1, cards), 'cannot_show');
    refused(hand, () => hand.showBlind(3, cards), 'invalid_cards');
    const restored = Hand.fromJSON(JSON.parse(JSON.stringify(hand.toJSON())));
    expect(restored.state()).toEqual(hand.state());
  });

  it('refuses a bad board, out-of-turn and bad shows, each with no state change', () => {
    const { hand, deck } = blindHand({ 1: 100, 2: 100, 3: 100 }, 1);
    refused(hand, () => hand.revealBoard(deck.slice(0, 3)), 'not_dealing');
    hand.call(1);
    hand.call(2);
    hand.check(3);
    expect(hand.phase).toBe(HandPhase.DEALING);
    expect(hand.actor).toBeNull();
    expect(hand.validActions()).toBeNull();
    const flop = cardsAt(deck, hand.pendingBoard!.indices);
    refused(hand, () => hand.check(2), 'not_betting');
    refused(hand, () => hand.revealBoard(flop.slice(0, 2)), 'invalid_cards');
    refused(hand, () => hand.revealBoard([...flop, deck[40]!]), 'invalid_cards');
    refused(hand, () => hand.revealBoard([flop[0]!, flop[0]!, flop[1]!]), 'invalid_cards');
    refused(hand, () => hand.revealBoard([flop[0]!, flop[1]!, 'Zz' as Card]), 'invalid_cards');
    refused(hand, () => hand.revealBoard('AsKsQs' as unknown as Card[]), 'invalid_cards');
    expect(hand.canRevealBoard(flop)).toBe(true);
    hand.revealBoard(flop);
    hand.check(2);
    hand.check(3);
    hand.check(1);
    refused(hand, () => hand.revealBoard([flop[1]!]), 'invalid_cards');
    hand.revealBoard(cardsAt(deck, hand.pendingBoard!.indices));
    checkDown(hand, deck);
    expect(hand.actor).toBe(2);
    const board = hand.boardCards;
    refused(hand, () => hand.showBlind(3, realHole(hand, deck, 3)), 'not_your_turn');
    refused(hand, () => hand.muckBlind(3), 'not_your_turn');
    refused(hand, () => hand.showBlind(2, [board[0]!, realHole(hand, deck, 2)[0]!]), 'invalid_cards');
    refused(hand, () => hand.showBlind(2, realHole(hand, deck, 2).slice(0, 1)), 'invalid_cards');
    refused(hand, () => hand.show(2), 'cannot_show');
    refused(hand, () => hand.call(2), 'not_betting');
    expect(hand.canShowBlind(2, realHole(hand, deck, 2))).toBe(true);
    hand.showBlind(2, realHole(hand, deck, 2));
    // A card seat 2 showed cannot be in seat 3's hand.
    refused(hand, () => hand.showBlind(3, [realHole(hand, deck, 2)[0]!, realHole(hand, deck, 3)[0]!]), 'invalid_cards');
    hand.showBlind(3, realHole(hand, deck, 3));
  });

  it('refuses a 2..5 card in Short Deck', () => {
    const { hand, deck } = blindHand({ 1: 100, 2: 100 }, 1, 'shortdeck');
    while (hand.pendingBoard === null) {
      if (hand.canCheck(hand.actor!)) hand.check(hand.actor!);
      else hand.call(hand.actor!);
    }
    const flop = cardsAt(deck, hand.pendingBoard.indices);
    refused(hand, () => hand.revealBoard([flop[0]!, flop[1]!, '2c']), 'invalid_cards');
  });

  it('refuses blind setups the engine cannot play', () => {
    const holdem = blindHand({ 1: 100, 2: 100 }, 1).hand.setup;
    for (const game of ['stud', 'stud8', 'razz', '27td']) {
      const rules = getGameRules(game);
      const stakes =
        rules.forcedBets === 'bring_in'
          ? { smallBlind: 0, bigBlind: 0, smallBet: 2, bigBet: 4, bringIn: 1, ante: 1 }
          : { smallBlind: 1, bigBlind: 2, smallBet: 2, bigBet: 4 };
      const setup: HandSetup = {
        ...holdem,
        game,
        limit: 'fl',
        stakes,
        forcedBets: standardForcedBets(rules, stakes, [1, 2], 1),
      };
      expectCode(() => new Hand(setup), 'unsupported_dealing');
      // The same setup dealt from a deck plays.
      expect(() => new Hand({ ...setup, dealing: 'standard', deck: initialDeck(rules.deck) }, { rules })).not.toThrow();
    }
    expectCode(() => new Hand({ ...holdem, deck: initialDeck('standard52') }), 'unsupported_dealing');
    const { deck: _deck, ...deckless } = holdem;
    expect(new Hand(deckless as HandSetup).dealing).toBe('blind');
    expectCode(() => new Hand({ ...holdem, deckSeed: '00'.repeat(32) }), 'unsupported_dealing');
    expectCode(() => new Hand({ ...holdem, dealing: 'weird' as 'blind' }), 'unsupported_dealing');
  });
});

// ---------------------------------------------------------------- replay, table, export

/** Feeds one logged input (a decision or a blind input) to `hand` through the public API. */
function applyInput(hand: Hand, op: Operation): void {
  if (isDecision(op)) applyDecision(hand, op);
  else if (op.type === 'deal_board') hand.revealBoard(op.cards);
  else if (op.type === 'show') hand.showBlind(op.seat, op.cards);
  else if (op.type === 'muck' && op.timeout) hand.applyTimeout();
  else if (op.type === 'muck') hand.muckBlind(op.seat);
  else throw new Error(`${op.type} is no input`);
}

describe('blind replay', { timeout: 120_000 }, () => {
  it('restores a blind hand from its JSON at every step, and the restored hand plays on identically', () => {
    let restores = 0;
    fc.assert(
      fc.property(arbitraryHand, fc.integer(), ({ game, limit, seed }, choiceSeed) => {
        const standard = standardHand(game, limit, seed);
        const rng = new SeededRng(`replay-${choiceSeed}`);
        const final = playBlind(standard, () => {
          const r = randomUnit(rng);
          return r < 0.6 ? 'show' : r < 0.9 ? 'muck' : 'timeout';
        });
        // Now and then a folded or mucked player shows after the hand.
        const later = final.state().players.find((p) => !p.shown);
        if (later !== undefined && randomUnit(rng) < 0.5) {
          final.showBlind(later.seat, realHole(final, standard.setup.deck, later.seat));
        }
        const finalJson = JSON.stringify(final.toJSON());
        const inputs = final.operations.filter((op) => isDecision(op) || isBlindInput(op, final.setup));
        const hand = new Hand(final.setup);
        for (let k = 0; k <= inputs.length; k++) {
          const restored = Hand.fromJSON(JSON.parse(JSON.stringify(hand.toJSON())));
          restores++;
          expect(restored.state()).toEqual(hand.state());
          expect(restored.pendingBoard).toEqual(hand.pendingBoard);
          expect(restored.showdownQueue).toEqual(hand.showdownQueue);
          expect(restored.validActions()).toEqual(hand.validActions());
          for (const op of inputs.slice(k)) applyInput(restored, op);
          expect(JSON.stringify(restored.toJSON())).toBe(finalJson);
          if (k < inputs.length) applyInput(hand, inputs[k]!);
        }
        expect(JSON.stringify(hand.toJSON())).toBe(finalJson);
      }),
      { seed: 4242, numRuns: 60 },
    );
    expect(restores).toBeGreaterThan(600);
  });

  it('refuses a log whose board differs from what the blind inputs replay to', () => {
    const { hand } = sidePotShowdown();
    const json = hand.toJSON();
    const ops = json.operations.map((op) =>
      op.type === 'deal_board' && op.street === 1 ? { ...op, indices: [0, 1, 2] } : op,
    );
    expectCode(() => Hand.fromJSON({ ...json, operations: ops }), 'log_mismatch');
    // A standard hand does not take its board as input.
    const standard = standardHand('holdem', 'nl', 'blind-1');
    expect(standard.operations.some((op) => isBlindInput(op, standard.setup))).toBe(false);
  });
});

describe('blind dealing at the table and in exports', () => {
  const config = { limit: 'nl', stakes: { smallBlind: 1, bigBlind: 2 }, maxSeats: 6 } as const;

  it('starts a blind hand with neither deck nor deck seed', () => {
    const table = new Table({ ...config, game: 'holdem' });
    table.sit(1, 'a', 100);
    table.sit(2, 'b', 100);
    const hand = table.startHand({ handId: HAND_ID, blind: true });
    expect(hand.dealing).toBe('blind');
    expect(hand.setup.dealing).toBe('blind');
    expect(hand.setup.deck).toEqual([]);
    expect('deckSeed' in hand.setup).toBe(false);
    expect(hand.state().players.map((p) => p.hole)).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  it('counts a timeout at the blind showdown toward sitting out', () => {
    const table = new Table({ ...config, game: 'holdem' });
    table.sit(1, 'a', 100);
    table.sit(2, 'b', 100);
    const hand = table.startHand({ handId: HAND_ID, blind: true });
    checkDown(hand, initialDeck('standard52'));
    const first = hand.actor!;
    hand.applyTimeout();
    expect(hand.isComplete).toBe(true);
    table.finishHand(hand);
    const timeouts = (seat: number) => table.toJSON().seats.find((s) => s.seat === seat)!.consecutiveTimeouts;
    expect(timeouts(first)).toBe(1);
    expect(timeouts(first === 1 ? 2 : 1)).toBe(0);
  });

  it('refuses a blind hand at a draw or mixed table before anything moves', () => {
    for (const game of ['27td', 'horse', '8game']) {
      const table = new Table({
        ...config,
        game,
        limit: 'fl',
        stakes: { smallBlind: 1, bigBlind: 2, smallBet: 2, bigBet: 4, bringIn: 1, ante: 1 },
      });
      table.sit(1, 'a', 100);
      table.sit(2, 'b', 100);
      const before = JSON.stringify(table.toJSON());
      expectCode(() => table.startHand({ handId: HAND_ID, blind: true }), 'unsupported_dealing');
      expect(JSON.stringify(table.toJSON())).toBe(before);
    }
  });

  it('exports unknown hole cards as ?? (PHH) and leaves them out (OHH)', () => {
    const { hand, deck } = sidePotShowdown();
    hand.showBlind(1, realHole(hand, deck, 1));
    hand.muckBlind(2);
    hand.muckBlind(3);
    const phh = toPhh(hand);
    expect(phh).toContain('d dh p1 ????');
    expect(phh).toContain(`p1 sm ${realHole(hand, deck, 1).join('')}`);
    expect(phh).toContain('p2 sm');
    const ohh = toOhh(hand);
    const dealt = ohh.ohh.rounds[0]!.actions.filter((a) => a.action === 'Dealt Cards');
    expect(dealt).toHaveLength(3);
    for (const a of dealt) expect(a.cards).toBeUndefined();
    expect(toPhh(hand, { viewer: 2 })).toContain('d dh p2 ????');
  });
});
