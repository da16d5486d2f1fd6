/*
 * Judging one rank multiset (or one suit's rank mask) from first principles. These run only while the
 * tables are built, never per evaluation.
 */

export interface Straight {
  /** Bit per rank index (0 = deuce .. 12 = ace). */
  readonly mask: number;
  /** Rank value of the top card; the ace counts low in a wheel. */
  readonly high: number;
}

export interface HighRules {
  /** Strength of each category, indexed by its position in HAND_CATEGORIES. */
  readonly strength: readonly number[];
  /** Every straight, strongest first. */
  readonly straights: readonly Straight[];
}

const ACE = 12;
const broadway: Straight[] = [];
for (let top = ACE; top >= 4; top--) broadway.push({ mask: 0x1f << (top - 4), high: top + 2 });
const WHEEL: Straight = { mask: (1 << ACE) | 0xf, high: 5 };

export const STANDARD_RULES: HighRules = {
  strength: [0, 1, 2, 3, 4, 5, 6, 7, 8],
  straights: [...broadway, WHEEL],
};

/*
 * Short Deck rankings: Royal Flush > Straight Flush > Four of a Kind > Flush > Full House > Straight > ...,
 * and A-6-7-8-9 is the lowest straight. Only the flush moves above the full house,
 * so trips stay below a straight as in the standard order. Straights of ranks below six are kept (they
 * cannot be dealt from a 36-card deck, and the short-deck entry points refuse such cards).
 */
export const SHORT_DECK_RULES: HighRules = {
  strength: [0, 1, 2, 3, 4, 6, 5, 7, 8],
  straights: [...broadway, { mask: (1 << ACE) | (0xf << 4), high: 9 }, WHEEL],
};

// Category indexes in HAND_CATEGORIES order, as plain numbers for the table builders.
const HIGH_CARD = 0;
const PAIR = 1;
const TWO_PAIR = 2;
const TRIPS = 3;
const STRAIGHT = 4;
const FLUSH = 5;
const FULL_HOUSE = 6;
const QUADS = 7;
const STRAIGHT_FLUSH = 8;

const NIBBLE = [0x10000, 0x1000, 0x100, 0x10, 0x1];

function head(rules: HighRules, category: number): number {
  return rules.strength[category]! * 0x1000000 + category * 0x100000;
}

/**
 * Packs the top `n` rank values present in `mask` (rank-index bits), skipping the ranks in `except`,
 * into the class key's rank nibbles from position `from` (0 = most significant) on.
 */
function top(mask: number, n: number, except: number, from: number): number {
  let packed = 0;
  let slot = from;
  for (let r = ACE; r >= 0 && slot < from + n; r--) {
    if ((mask & (1 << r)) !== 0 && (except & (1 << r)) === 0) packed += (r + 2) * NIBBLE[slot++]!;
  }
  return packed;
}

/** The best five-card hand without a flush in a multiset of 5..7 ranks (counts by rank index). */
export function nonFlushKey(counts: ArrayLike<number>, rules: HighRules): number {
  let present = 0;
  let q = -1;
  let t = -1;
  let t2 = -1;
  let p = -1;
  let p2 = -1;
  for (let r = ACE; r >= 0; r--) {
    const c = counts[r] ?? 0;
    if (c === 0) continue;
    present |= 1 << r;
    if (c === 4) {
      if (q < 0) q = r;
    } else if (c === 3) {
      if (t < 0) t = r;
      else if (t2 < 0) t2 = r;
    } else if (c === 2) {
      if (p < 0) p = r;
      else if (p2 < 0) p2 = r;
    }
  }
  if (q >= 0) return head(rules, QUADS) + (q + 2) * NIBBLE[0]! + top(present, 1, 1 << q, 1);
  if (t >= 0 && (t2 >= 0 || p >= 0)) {
    return head(rules, FULL_HOUSE) + (t + 2) * NIBBLE[0]! + (Math.max(t2, p) + 2) * NIBBLE[1]!;
  }
  for (const s of rules.straights) {
    if ((present & s.mask) === s.mask) return head(rules, STRAIGHT) + s.high * NIBBLE[0]!;
  }
  if (t >= 0) return head(rules, TRIPS) + (t + 2) * NIBBLE[0]! + top(present, 2, 1 << t, 1);
  if (p2 >= 0) {
    return (
      head(rules, TWO_PAIR) + (p + 2) * NIBBLE[0]! + (p2 + 2) * NIBBLE[1]! + top(present, 1, (1 << p) | (1 << p2), 2)
    );
  }
  if (p >= 0) return head(rules, PAIR) + (p + 2) * NIBBLE[0]! + top(present, 3, 1 << p, 1);
  return head(rules, HIGH_CARD) + top(present, 5, 0, 0);
}

export function popcount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

/** The best flush or straight flush from one suit's rank mask, or -1 for fewer than five cards. */
export function flushKey(mask: number, rules: HighRules): number {
  if (popcount(mask) < 5) return -1;
  for (const s of rules.straights) {
    if ((mask & s.mask) === s.mask) return head(rules, STRAIGHT_FLUSH) + s.high * NIBBLE[0]!;
  }
  return head(rules, FLUSH) + top(mask, 5, 0, 0);
}

/*
 * A-5 lowball (Razz, and the low half of 8-or-better): the ace is the lowest card, straights and flushes
 * do not exist, and pairing makes a hand worse: no pair < one pair < two pair < trips < full house <
 * quads. Within a category hands compare like high hands with the order reversed, so the class key
 * below is smaller for a better low.
 */
// A-5 strength of each pairing category, by category index; straights and flushes never arise.
const LOW_STRENGTH = [0, 1, 2, 3, -1, -1, 4, 5, -1];

function lowHead(category: number): number {
  return LOW_STRENGTH[category]! * 0x1000000 + category * 0x100000;
}

/** Rank value in A-5 order: the ace is 1. */
const lowValue = (r: number): number => (r === ACE ? 1 : r + 2);

/**
 * The A-5 low class of exactly five ranks (counts by rank index). Ranks are listed largest group first,
 * then high to low, as lowball compares them; six- and seven-card lows come from the table builder's
 * best-of-removals step.
 */
export function lowA5Key(counts: ArrayLike<number>): number {
  const groups: [count: number, value: number][] = [];
  for (let r = 0; r <= ACE; r++) {
    const c = counts[r] ?? 0;
    if (c > 0) groups.push([c, lowValue(r)]);
  }
  groups.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  const [first, second] = groups;
  let category = HIGH_CARD;
  if (first![0] === 4) category = QUADS;
  else if (first![0] === 3) category = second![0] === 2 ? FULL_HOUSE : TRIPS;
  else if (first![0] === 2) category = second![0] === 2 ? TWO_PAIR : PAIR;
  let packed = 0;
  groups.forEach(([, value], i) => (packed += value * NIBBLE[i]!));
  return lowHead(category) + packed;
}
