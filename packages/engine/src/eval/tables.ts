import { flushKey, nonFlushKey, type HighRules } from './classify.js';
import { denseClasses, rankIndex, type DenseClasses } from './rank-index.js';

/** The tables of one high-hand ranking (standard or short deck). */
export interface HighTables {
  /** Value of the best non-flush hand, by rank slot (rank-index.ts). */
  readonly rank: Uint16Array;
  /** Value of the best flush or straight flush, by the 13-bit rank mask of the flush suit. */
  readonly flush: Uint16Array;
  /** Class key of each value (index 0 unused). */
  readonly keyOfValue: Int32Array;
}

/** Class keys of every five-card rank multiset, by slot. */
export function fiveCardKeys(classify: (counts: Uint8Array) => number): Int32Array {
  const index = rankIndex();
  const keys = new Int32Array(index.fiveCardEntries);
  index.forEachFiveCardSlot((slot, counts) => {
    keys[slot] = classify(counts);
  });
  return keys;
}

/** A full 5..7-card value table from the five-card class keys and their dense ranking. */
export function rankTable(keys5: Int32Array, classes: DenseClasses): Uint16Array {
  const index = rankIndex();
  const table = new Uint16Array(index.entries);
  for (let slot = 0; slot < keys5.length; slot++) table[slot] = classes.valueOf(keys5[slot]!);
  index.extendToSevenCards(table);
  return table;
}

export function buildHighTables(rules: HighRules): HighTables {
  const keys5 = fiveCardKeys((counts) => nonFlushKey(counts, rules));
  const flushKeys = new Int32Array(1 << 13);
  for (let mask = 0; mask < flushKeys.length; mask++) flushKeys[mask] = flushKey(mask, rules);
  const classes = denseClasses([keys5, flushKeys], false);
  const flush = new Uint16Array(flushKeys.length);
  for (let mask = 0; mask < flush.length; mask++) {
    const k = flushKeys[mask]!;
    if (k >= 0) flush[mask] = classes.valueOf(k);
  }
  return { rank: rankTable(keys5, classes), flush, keyOfValue: classes.keyOfValue };
}

/** Builds on first use, so importing the engine pays only for the tables it touches. */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}
