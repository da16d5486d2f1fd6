/*
 * The index every rank table shares.
 *
 * A non-flush hand is judged by its rank multiset alone. Each card carries an additive key; the sum over a
 * hand is one 32-bit integer that splits into two group sums: deuce..eight in the low 16 bits, nine..ace
 * above them. Each group's per-rank keys are the greedy smallest integers for which every multiset of that
 * group with at most four of a rank and at most seven cards has its own sum, so a group sum names its
 * multiset exactly (and the low group's sums stay under 2^16, so the halves never carry into each other).
 *
 * A table slot is then base_n[high sum] + lowSlot[low sum]: base_n gives the block of the high-group
 * multiset for hands of n cards, lowSlot the position of the low-group multiset among those of its size.
 * Blocks are packed, so the n = 5, 6 and 7 tables hold exactly 6,175 + 18,395 + 49,205 = 73,775 slots.
 * This stands in for the displacement perfect hash of SKPokerEval and OMPEval: the same two dependent
 * loads per evaluation, but two small direct tables that build in milliseconds, where a first-fit
 * displacement over these keys took seconds to construct.
 */

/** Keys of ranks deuce..eight (rank index 0..6). */
export const LOW_GROUP_KEYS: readonly number[] = [1, 5, 24, 112, 521, 2247, 9244];
/** Keys of ranks nine..ace (rank index 7..12), stored shifted left by HIGH_GROUP_SHIFT. */
export const HIGH_GROUP_KEYS: readonly number[] = [1, 5, 24, 112, 521, 2247];
export const HIGH_GROUP_SHIFT = 16;
const LOW_GROUP_RANKS = LOW_GROUP_KEYS.length;

/** Suit counts, one nibble per suit, biased by 3 so that a count of five or more sets the nibble's top bit. */
export const SUIT_BIAS = 0x3333;
export const FLUSH_BITS = 0x8888;

/** Per card code (rankIndex * 4 + suitIndex, cards.ts). */
export const RANK_KEY = new Int32Array(52);
export const SUIT_KEY = new Int32Array(52);
export const RANK_BIT = new Int32Array(52);
for (let code = 0; code < 52; code++) {
  const r = code >> 2;
  RANK_KEY[code] =
    r < LOW_GROUP_RANKS ? LOW_GROUP_KEYS[r]! : HIGH_GROUP_KEYS[r - LOW_GROUP_RANKS]! * 2 ** HIGH_GROUP_SHIFT;
  SUIT_KEY[code] = 1 << (4 * (code & 3));
  RANK_BIT[code] = 1 << r;
}

/** The suit index (0..3) whose biased count reached five, given `suitSum & FLUSH_BITS` (non-zero). */
export function flushSuit(flushBits: number): number {
  return (31 - Math.clz32(flushBits)) >> 2;
}

export const MIN_CARDS = 5;
export const MAX_CARDS = 7;

/** The slot arithmetic and the builders' helpers; see the top of this file. */
export interface RankIndex {
  /** base[n][high sum] for n = 5, 6, 7 (other sizes are empty). */
  readonly base: readonly Int32Array[];
  readonly base5: Int32Array;
  readonly base7: Int32Array;
  readonly lowSlot: Uint16Array;
  /** Slots in a 5..7-card table. */
  readonly entries: number;
  /** The five-card slots come first: 0 .. fiveCardEntries - 1. */
  readonly fiveCardEntries: number;
  /** Calls `visit(slot, counts)` for every five-card rank multiset; counts (by rank index) is reused. */
  forEachFiveCardSlot(visit: (slot: number, counts: Uint8Array) => void): void;
  /**
   * Fills the six- and seven-card slots of a value table whose five-card slots are set: the best five of
   * n cards is the best five of the n - 1 left after dropping some card, so each slot is the maximum over
   * its one-card removals. Exact by construction, and far cheaper than judging 67,600 larger multisets
   * from first principles.
   */
  extendToSevenCards(table: Uint16Array): void;
  /** Bytes held by the index itself. */
  readonly bytes: number;
}

interface GroupSet {
  readonly key: number;
  readonly size: number;
  readonly counts: Uint8Array;
}

function enumerateGroup(keys: readonly number[]): GroupSet[] {
  const out: GroupSet[] = [];
  const counts = new Uint8Array(keys.length);
  const visit = (i: number, size: number, sum: number): void => {
    if (i === keys.length) {
      out.push({ key: sum, size, counts: counts.slice() });
      return;
    }
    for (let c = 0; c <= 4 && size + c <= MAX_CARDS; c++) {
      counts[i] = c;
      visit(i + 1, size + c, sum + c * keys[i]!);
    }
    counts[i] = 0;
  };
  visit(0, 0, 0);
  return out;
}

function buildRankIndex(): RankIndex {
  const lowSets = enumerateGroup(LOW_GROUP_KEYS);
  const highSets = enumerateGroup(HIGH_GROUP_KEYS);
  const maxKey = (sets: readonly GroupSet[]): number => sets.reduce((m, s) => Math.max(m, s.key), 0);

  const lowSlot = new Uint16Array(maxKey(lowSets) + 1).fill(0xffff);
  const lowBySize: GroupSet[][] = Array.from({ length: MAX_CARDS + 1 }, () => []);
  for (const set of lowSets) {
    const bySize = lowBySize[set.size]!;
    // Cannot happen with the keys above; it guards anyone who edits them.
    if (lowSlot[set.key] !== 0xffff) throw new Error(`rank keys collide at ${set.key}`);
    lowSlot[set.key] = bySize.length;
    bySize.push(set);
  }
  if (new Set(highSets.map((s) => s.key)).size !== highSets.length) throw new Error('rank keys collide');

  const empty = new Int32Array(0);
  const base: Int32Array[] = [];
  let entries = 0;
  for (let n = 0; n <= MAX_CARDS; n++) {
    if (n < MIN_CARDS) {
      base.push(empty);
      continue;
    }
    const b = new Int32Array(maxKey(highSets) + 1).fill(-1);
    for (const h of highSets) {
      if (h.size > n) continue;
      b[h.key] = entries;
      entries += lowBySize[n - h.size]!.length;
    }
    base.push(b);
  }
  const base5 = base[5]!;
  const base7 = base[7]!;
  const fiveCardEntries = highSets.reduce((s, h) => s + (lowBySize[5 - h.size]?.length ?? 0), 0);

  // One-card removals, flat, so that extendToSevenCards is plain typed-array reads: it runs once, mostly
  // before the JIT has warmed up, so its loop body must be cheap even when interpreted.
  const lowDropStart = new Int32Array(lowSets.length + 1);
  const lowDropSlots: number[] = [];
  const lowIdSlot = new Int32Array(lowSets.length);
  const lowIdsBySize: number[][] = Array.from({ length: MAX_CARDS + 1 }, () => []);
  lowSets.forEach((l, id) => {
    lowDropStart[id] = lowDropSlots.length;
    for (let r = 0; r < LOW_GROUP_RANKS; r++) {
      if (l.counts[r] !== 0) lowDropSlots.push(lowSlot[l.key - LOW_GROUP_KEYS[r]!]!);
    }
    lowIdSlot[id] = lowSlot[l.key]!;
    lowIdsBySize[l.size]!.push(id);
  });
  lowDropStart[lowSets.length] = lowDropSlots.length;
  const lowDrops = Int32Array.from(lowDropSlots);

  return {
    base,
    base5,
    base7,
    lowSlot,
    entries,
    fiveCardEntries,
    bytes: lowSlot.byteLength + base.reduce((s, b) => s + b.byteLength, 0),
    forEachFiveCardSlot(visit) {
      const counts = new Uint8Array(13);
      for (const h of highSets) {
        if (h.size > 5) continue;
        counts.set(h.counts, LOW_GROUP_RANKS);
        const start = base5[h.key]!;
        const lows = lowBySize[5 - h.size]!;
        for (let i = 0; i < lows.length; i++) {
          counts.set(lows[i]!.counts, 0);
          visit(start + i, counts);
        }
      }
    },
    extendToSevenCards(table) {
      const highDrops = new Int32Array(HIGH_GROUP_KEYS.length);
      for (let n = 6; n <= MAX_CARDS; n++) {
        const into = base[n]!;
        const smaller = base[n - 1]!;
        for (const h of highSets) {
          if (h.size > n) continue;
          let drops = 0;
          for (let r = 0; r < HIGH_GROUP_KEYS.length; r++) {
            if (h.counts[r] !== 0) highDrops[drops++] = smaller[h.key - HIGH_GROUP_KEYS[r]!]!;
          }
          const start = into[h.key]!;
          const same = smaller[h.key]!;
          const ids = lowIdsBySize[n - h.size]!;
          for (let i = 0; i < ids.length; i++) {
            const id = ids[i]!;
            let best = 0;
            for (let j = lowDropStart[id]!, end = lowDropStart[id + 1]!; j < end; j++) {
              const v = table[same + lowDrops[j]!]!;
              if (v > best) best = v;
            }
            const slot = lowIdSlot[id]!;
            for (let j = 0; j < drops; j++) {
              const v = table[highDrops[j]! + slot]!;
              if (v > best) best = v;
            }
            table[start + i] = best;
          }
        }
      }
    },
  };
}

let index: RankIndex | undefined;

/** The shared index, built on first use. */
export function rankIndex(): RankIndex {
  return (index ??= buildRankIndex());
}

/** Dense values for a set of class keys: 1 for the weakest class, counting up. */
export interface DenseClasses {
  /** Class key of each value; index 0 is unused. */
  readonly keyOfValue: Int32Array;
  valueOf(key: number): number;
}

/**
 * Ranks the distinct keys found in `tables` (negative entries are unused slots). With `lowerIsBetter`
 * the smallest key gets the highest value, which is how lows turn into higher-is-better values.
 */
export function denseClasses(tables: readonly Int32Array[], lowerIsBetter: boolean): DenseClasses {
  let total = 0;
  for (const t of tables) total += t.length;
  const all = new Int32Array(total);
  let at = 0;
  for (const t of tables) {
    all.set(t, at);
    at += t.length;
  }
  all.sort();
  const distinct: number[] = [];
  for (const k of all) if (k >= 0 && k !== distinct[distinct.length - 1]) distinct.push(k);
  if (lowerIsBetter) distinct.reverse();
  const keyOfValue = new Int32Array(distinct.length + 1);
  keyOfValue.set(distinct, 1);
  const valueByKey = new Map<number, number>();
  for (let v = 1; v < keyOfValue.length; v++) valueByKey.set(keyOfValue[v]!, v);
  return {
    keyOfValue,
    valueOf(key: number): number {
      const v = valueByKey.get(key);
      if (v === undefined) throw new Error(`no class for key ${key}`);
      return v;
    },
  };
}
