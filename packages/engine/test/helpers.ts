/**
 * Test helpers: rigged decks, a slow-but-obviously-correct reference evaluator, and hand builders.
 * The reference evaluator exists so that engine tests do not depend on the table-driven one they are
 * not testing; it is also the oracle the evaluator tests can compare against.
 */
import { initialDeck, rankIndex, suitIndex, type Card, type DeckKind } from '../src/cards.js';
import { getGameRules } from '../src/games/registry.js';
import { holdem, flopStreets } from '../src/games/holdem.js';
import type { GameRules, ShowdownSide } from '../src/games/types.js';
import { Hand, type HandOptions } from '../src/hand/hand.js';
import { orderFromButton } from '../src/hand/seats.js';
import { standardForcedBets, type HandSetup, type RakeConfig } from '../src/hand/setup.js';
import type { Stakes, BetLimit } from '../src/betting/structure.js';

/** Category 0..8 then up to five rank values, packed base 16: higher is better. */
export function referenceValue5(cards: readonly Card[]): number {
  const ranks = cards.map((c) => rankIndex(c) + 2).sort((a, b) => b - a);
  const flush = new Set(cards.map((c) => suitIndex(c))).size === 1;
  const uniq = [...new Set(ranks)];
  let straightHigh = 0;
  if (uniq.length === 5) {
    if (ranks[0]! - ranks[4]! === 4) straightHigh = ranks[0]!;
    else if (ranks.join(',') === '14,5,4,3,2') straightHigh = 5;
  }
  const counts = new Map<number, number>();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const shape = groups.map((g) => g[1]).join('');
  const byGroup = groups.map((g) => g[0]);
  let cat: number;
  let tie: number[];
  if (straightHigh && flush) [cat, tie] = [8, [straightHigh]];
  else if (shape === '41') [cat, tie] = [7, byGroup];
  else if (shape === '32') [cat, tie] = [6, byGroup];
  else if (flush) [cat, tie] = [5, ranks];
  else if (straightHigh) [cat, tie] = [4, [straightHigh]];
  else if (shape === '311') [cat, tie] = [3, byGroup];
  else if (shape === '221') [cat, tie] = [2, byGroup];
  else if (shape === '2111') [cat, tie] = [1, byGroup];
  else [cat, tie] = [0, ranks];
  let v = cat;
  for (let i = 0; i < 5; i++) v = v * 16 + (tie[i] ?? 0);
  return v;
}

export function referenceBest(cards: readonly Card[]): { value: number; best: Card[] } {
  let bestValue = -1;
  let best: Card[] = [];
  const n = cards.length;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        for (let d = c + 1; d < n; d++)
          for (let e = d + 1; e < n; e++) {
            const five = [cards[a]!, cards[b]!, cards[c]!, cards[d]!, cards[e]!];
            const v = referenceValue5(five);
            if (v > bestValue) {
              bestValue = v;
              best = five;
            }
          }
  return { value: bestValue, best };
}

export const referenceHigh: ShowdownSide = {
  kind: 'high',
  evaluate: (hole, board) => referenceBest([...hole, ...board]).value,
  describe: (hole, board) => {
    const r = referenceBest([...hole, ...board]);
    return { name: `ref ${r.value}`, best: r.best };
  },
};

/** Hold'em with the reference evaluator. */
export const refHoldem: GameRules = { ...holdem, streets: flopStreets(2), showdown: [referenceHigh] };
export const refOptions: HandOptions = { rules: refHoldem };

/**
 * A deck that deals the given hole cards (by seat) and board, in the engine's dealing order: one card
 * at a time starting left of the button, then the board. Other cards follow in initial order.
 */
export function riggedDeck(
  seats: readonly number[],
  button: number,
  hole: Readonly<Record<number, string>>,
  board: string,
  holeCount = 2,
): Card[] {
  const order = orderFromButton(seats, button);
  const out: (Card | null)[] = [];
  const split = (s: string): Card[] => (s.replace(/\s+/g, '').match(/../g) ?? []) as Card[];
  for (let r = 0; r < holeCount; r++) {
    for (const seat of order) {
      const cards = split(hole[seat] ?? '');
      out.push(cards[r] ?? null);
    }
  }
  out.push(...split(board));
  const used = new Set(out.filter((c): c is Card => c !== null));
  const rest = initialDeck('standard52').filter((c) => !used.has(c));
  return out.map((c) => c ?? rest.shift()!).concat(rest);
}

export interface QuickHand {
  stacks: Record<number, number>;
  button: number;
  stakes?: Partial<Stakes>;
  limit?: BetLimit;
  hole?: Record<number, string>;
  board?: string;
  rake?: RakeConfig | null;
  handId?: string;
}

export function quickSetup(q: QuickHand): HandSetup {
  const seats = Object.keys(q.stacks)
    .map(Number)
    .sort((a, b) => a - b);
  const stakes: Stakes = { smallBlind: 1, bigBlind: 2, ...q.stakes };
  return {
    handId: q.handId ?? '00000000-0000-4000-8000-000000000001',
    game: 'holdem',
    limit: q.limit ?? 'nl',
    stakes,
    button: q.button,
    players: seats.map((seat) => ({ seat, id: `p${seat}`, stack: q.stacks[seat]! })),
    forcedBets: standardForcedBets(refHoldem, stakes, seats, q.button),
    deck: riggedDeck(seats, q.button, q.hole ?? {}, q.board ?? ''),
    rake: q.rake ?? null,
  };
}

export function quickHand(q: QuickHand): Hand {
  return new Hand(quickSetup(q), refOptions);
}

export function stacksOf(hand: Hand): Record<number, number> {
  const out: Record<number, number> = {};
  for (const p of hand.state().players) out[p.seat] = p.stack;
  return out;
}

/** A deck that deals exactly `deal` (cards in dealing order) first, then the rest in initial order. */
export function deckInOrder(deal: string, kind: DeckKind = 'standard52'): Card[] {
  const first = (deal.replace(/\s+/g, '').match(/../g) ?? []) as Card[];
  const used = new Set(first);
  if (used.size !== first.length) throw new Error('a card is dealt twice');
  return [...first, ...initialDeck(kind).filter((c) => !used.has(c))];
}

export interface VariantHandSpec {
  game: string;
  limit?: BetLimit;
  stacks: Record<number, number>;
  button: number;
  stakes: Stakes;
  /** Cards in the order the engine deals them. */
  deal?: string;
  deck?: Card[];
  deckSeed?: string;
  rake?: RakeConfig | null;
  handId?: string;
}

export function variantSetup(v: VariantHandSpec): HandSetup {
  const rules = getGameRules(v.game);
  const seats = Object.keys(v.stacks)
    .map(Number)
    .sort((a, b) => a - b);
  return {
    handId: v.handId ?? '00000000-0000-4000-8000-000000000002',
    game: v.game,
    limit: v.limit ?? rules.defaultLimit,
    stakes: v.stakes,
    button: v.button,
    players: seats.map((seat) => ({ seat, id: `p${seat}`, stack: v.stacks[seat]! })),
    forcedBets: standardForcedBets(rules, v.stakes, seats, v.button),
    deck: v.deck ?? deckInOrder(v.deal ?? '', rules.deck),
    ...(v.deckSeed !== undefined ? { deckSeed: v.deckSeed } : {}),
    rake: v.rake ?? null,
  };
}

export function variantHand(v: VariantHandSpec): Hand {
  return new Hand(variantSetup(v));
}

/** Throws unless `fn` throws an error with this `code`. */
export function expectCode(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (e) {
    if ((e as { code?: unknown }).code === code) return;
    throw new Error(`expected code ${code}, got ${String((e as { code?: unknown }).code)}`, { cause: e });
  }
  throw new Error(`expected code ${code}, nothing was thrown`);
}

/** Plays passively to the end: bring in, stand pat, check or call. */
export function playPassively(hand: Hand): Hand {
  let guard = 0;
  while (!hand.isComplete) {
    if (++guard > 1000) throw new Error('hand does not end');
    const va = hand.validActions()!;
    if (va.discard !== null) hand.standPat(va.seat);
    else if (va.bringIn !== null) hand.bringIn(va.seat);
    else if (va.check) hand.check(va.seat);
    else hand.call(va.seat);
  }
  return hand;
}
