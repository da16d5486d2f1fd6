import {
  ByteStream,
  type DeckKind,
  FELT_DECK_V1,
  commitOf,
  deckSeedOf,
  fisherYatesWith,
  fromHex,
  toHex,
  unshuffledDeck,
} from './derive.js';
import { VerifierError, VerifierErrorCode } from './errors.js';
import { parseRevealRecord, type ParsedRecord } from './record.js';

export const VerifyFailureCode = {
  MALFORMED_FIELD: 'malformed_field',
  UNSUPPORTED_VERSION: 'unsupported_version',
  COMMIT_MISMATCH: 'commit_mismatch',
  DECK_SEED_MISMATCH: 'deck_seed_mismatch',
  INDICES_NOT_CONTIGUOUS: 'indices_not_contiguous',
  CARD_MISMATCH: 'card_mismatch',
  RESHUFFLE_INVALID: 'reshuffle_invalid',
  OWN_SEED_MISSING: 'own_seed_missing',
} as const;
export type VerifyFailureCode = (typeof VerifyFailureCode)[keyof typeof VerifyFailureCode];

/** One failed check, with the fields a UI needs to show it; `message` is a ready-made English sentence. */
export type VerifyFailure =
  | { code: 'malformed_field'; field: string; message: string }
  | { code: 'unsupported_version'; version: string; message: string }
  | {
      code: 'commit_mismatch';
      /** `record`: against the record's own seed_commit; `expected`: against the commit seen before the deal. */
      against: 'record' | 'expected';
      computed: string;
      claimed: string;
      message: string;
    }
  | { code: 'deck_seed_mismatch'; computed: string; claimed: string; message: string }
  | { code: 'indices_not_contiguous'; missing: number[]; duplicated: number[]; outOfRange: number[]; message: string }
  | {
      code: 'card_mismatch';
      index: number;
      /** null: a withheld card at an index past the end of the deck (a withheld card is otherwise unchecked). */
      recorded: string | null;
      expected: string | null;
      message: string;
    }
  | { code: 'reshuffle_invalid'; reshuffle: number; atIndex: number; reason: string; message: string }
  | { code: 'own_seed_missing'; seat: number; reason: 'seat_absent' | 'seed_differs'; message: string };

export const CheckStatus = { PASSED: 'passed', FAILED: 'failed', SKIPPED: 'skipped', NOT_APPLICABLE: 'n/a' } as const;
export type CheckStatus = (typeof CheckStatus)[keyof typeof CheckStatus];

/** What a verifier checks (docs/fairness.md), one entry per check. `skipped` means a malformed input blocked it. */
export interface VerifyChecks {
  structure: CheckStatus;
  version: CheckStatus;
  commit: CheckStatus;
  deckSeed: CheckStatus;
  indices: CheckStatus;
  cards: CheckStatus;
  reshuffles: CheckStatus;
  ownSeed: CheckStatus;
}

export interface VerifyResult {
  ok: boolean;
  handId: string | null;
  variant: string | null;
  deck: DeckKind | null;
  /** Recorded cards found at their index in the rebuilt deck. */
  cardsMatched: number;
  /**
   * Dealt entries whose card is withheld (`card: null`, as the lobby's history serves a hand to a player
   * who did not see every card): their index counts toward 0..k−1, their card is not checked.
   */
  cardsWithheld: number;
  clientSeedCount: number;
  /**
   * No client seed was mixed in. The checks then prove only that the deck did not change after the commit,
   * not that the server did not choose its seed (docs/fairness.md, honest limits).
   */
  serverSeedOnly: boolean;
  checks: VerifyChecks;
  failures: VerifyFailure[];
}

export interface VerifyOptions {
  /** The seed_commit this client received before the deal; the record's own copy could have been rewritten. */
  expectedCommit?: string;
  /** The seed this client sent in time: it must be among those mixed in. */
  ownSeed?: { seat: number; seed: string | Uint8Array };
}

function canonicalSort(cards: readonly string[], kind: DeckKind): string[] {
  const order = unshuffledDeck(kind);
  return [...cards].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

interface Rebuilt {
  cards: string[];
  /** Indices below this are determined; a broken reshuffle leaves what follows it unverifiable. */
  determinedUpTo: number;
  problems: { reshuffle: number; atIndex: number; reason: string }[];
}

/**
 * The deck a verifier expects: felt-deck-v1's shuffle, then each draw-game reshuffle (docs/fairness.md): the
 * undealt rest of the stub plus the named discards, sorted into initial-deck order, Fisher–Yates'd with the
 * same byte stream continuing, appended at `at_index`.
 */
function rebuild(
  deckSeed: Uint8Array,
  kind: DeckKind,
  reshuffles: readonly { atIndex: number; discards: string[] }[],
  dealtCount: number,
): Rebuilt {
  const stream = new ByteStream(deckSeed);
  let cards = fisherYatesWith(unshuffledDeck(kind), stream);
  const inDeck = new Set(unshuffledDeck(kind));
  let previous = -1;
  for (const [i, { atIndex, discards }] of reshuffles.entries()) {
    const stop = (reason: string): Rebuilt => ({
      cards,
      determinedUpTo: Math.min(atIndex, cards.length),
      problems: [{ reshuffle: i, atIndex, reason }],
    });
    if (atIndex <= previous) return stop('at_index is not after the previous reshuffle');
    if (atIndex > cards.length) return stop('at_index is past the end of the deck');
    if (atIndex > dealtCount) return stop('at_index is past the last dealt card');
    const seen = new Set<string>();
    for (const card of discards) {
      if (!inDeck.has(card)) return stop(`${card} is not in a ${kind} deck`);
      if (seen.has(card)) return stop(`${card} is discarded twice`);
      seen.add(card);
      const last = cards.lastIndexOf(card);
      if (last < 0 || last >= atIndex) return stop(`${card} was not dealt before the reshuffle (it is in the stub)`);
    }
    const pile = [...cards.slice(atIndex), ...discards];
    if (pile.length === 0) return stop('nothing to reshuffle');
    cards = [...cards.slice(0, atIndex), ...fisherYatesWith(canonicalSort(pile, kind), stream)];
    previous = atIndex;
  }
  return { cards, determinedUpTo: cards.length, problems: [] };
}

function failureFor(field: string, problem: string): VerifyFailure {
  return { code: VerifyFailureCode.MALFORMED_FIELD, field, message: `${field} ${problem}` };
}

function normalizeOwnSeed(own: NonNullable<VerifyOptions['ownSeed']>): { seat: number; seed: string } {
  const bytes = typeof own.seed === 'string' ? fromHex(own.seed) : own.seed;
  if (!Number.isInteger(own.seat) || own.seat < 0 || own.seat > 255 || bytes === null || bytes.length !== 32) {
    throw new VerifierError(VerifierErrorCode.INVALID_OPTION, 'ownSeed needs a seat in 0..255 and a 32-byte seed', {
      seat: own.seat,
    });
  }
  return { seat: own.seat, seed: toHex(bytes) };
}

/**
 * Checks one reveal record against the derivation (docs/fairness.md): the commit, the deck seed, every
 * recorded card at its index, indices exactly 0..k−1, draw-game reshuffles, and (optionally) the caller's
 * own seed and the commit it saw before the deal. A withheld card (`card: null`) keeps its index in the 0..k−1 check but its value is not
 * checked; `cardsWithheld` counts them. Every failed check is reported; the function throws only when `record` is not an object
 * or an option is malformed.
 */
export function verifyReveal(record: unknown, opts: VerifyOptions = {}): VerifyResult {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new VerifierError(VerifierErrorCode.UNUSABLE_RECORD, 'a reveal record must be a JSON object', {
      type: Array.isArray(record) ? 'array' : record === null ? 'null' : typeof record,
    });
  }
  let expectedCommit: string | undefined;
  if (opts.expectedCommit !== undefined) {
    expectedCommit = opts.expectedCommit.toLowerCase();
    if (!/^sha256:[0-9a-f]{64}$/.test(expectedCommit)) {
      throw new VerifierError(VerifierErrorCode.INVALID_OPTION, 'expectedCommit must be "sha256:" + 64 hex');
    }
  }
  const ownSeed = opts.ownSeed === undefined ? undefined : normalizeOwnSeed(opts.ownSeed);

  const { parsed: p, malformed } = parseRevealRecord(record as Record<string, unknown>);
  const failures: VerifyFailure[] = malformed.map((m) => failureFor(m.field, m.problem));
  const checks: VerifyChecks = {
    structure: malformed.length === 0 ? CheckStatus.PASSED : CheckStatus.FAILED,
    version: CheckStatus.SKIPPED,
    commit: CheckStatus.SKIPPED,
    deckSeed: CheckStatus.SKIPPED,
    indices: CheckStatus.SKIPPED,
    cards: CheckStatus.SKIPPED,
    reshuffles:
      p.reshuffles === undefined && !('reshuffles' in record) ? CheckStatus.NOT_APPLICABLE : CheckStatus.SKIPPED,
    ownSeed: ownSeed === undefined ? CheckStatus.NOT_APPLICABLE : CheckStatus.SKIPPED,
  };
  const fail = (check: keyof VerifyChecks, failure: VerifyFailure): void => {
    checks[check] = CheckStatus.FAILED;
    failures.push(failure);
  };
  const pass = (check: keyof VerifyChecks): void => {
    if (checks[check] === CheckStatus.SKIPPED) checks[check] = CheckStatus.PASSED;
  };

  const supported = p.version === FELT_DECK_V1;
  if (p.version !== undefined) {
    if (supported) pass('version');
    else {
      fail('version', {
        code: VerifyFailureCode.UNSUPPORTED_VERSION,
        version: p.version,
        message: `derivation version "${p.version}" is not one this verifier knows (it knows ${FELT_DECK_V1})`,
      });
    }
  }

  checkIndices(p, fail, pass);
  let matched = 0;
  if (supported) {
    checkCommit(p, expectedCommit, fail, pass);
    const deckSeed = checkDeckSeed(p, fail, pass);
    if (deckSeed !== undefined) matched = checkCards(p, deckSeed, fail, pass);
  }
  if (ownSeed !== undefined && p.clientSeeds !== undefined) {
    const mine = p.clientSeeds.find((s) => s.seat === ownSeed.seat);
    if (mine === undefined) {
      fail('ownSeed', {
        code: VerifyFailureCode.OWN_SEED_MISSING,
        seat: ownSeed.seat,
        reason: 'seat_absent',
        message: `no client seed from seat ${ownSeed.seat} was mixed in`,
      });
    } else if (toHex(mine.seed) !== ownSeed.seed) {
      fail('ownSeed', {
        code: VerifyFailureCode.OWN_SEED_MISSING,
        seat: ownSeed.seat,
        reason: 'seed_differs',
        message: `the seed mixed in for seat ${ownSeed.seat} is not the one this client sent`,
      });
    } else pass('ownSeed');
  }

  return {
    ok: failures.length === 0,
    handId: p.handId ?? null,
    variant: p.variant ?? null,
    deck: p.deck ?? null,
    cardsMatched: matched,
    cardsWithheld: p.dealt?.filter((d) => d.card === null).length ?? 0,
    clientSeedCount: p.clientSeeds?.length ?? 0,
    serverSeedOnly: p.clientSeeds !== undefined && p.clientSeeds.length === 0,
    checks,
    failures,
  };
}

type Fail = (check: keyof VerifyChecks, failure: VerifyFailure) => void;
type Pass = (check: keyof VerifyChecks) => void;

function checkIndices(p: ParsedRecord, fail: Fail, pass: Pass): void {
  if (p.dealt === undefined) return;
  const k = p.dealt.length;
  const seen = new Array<number>(k).fill(0);
  const duplicated = new Set<number>();
  const outOfRange: number[] = [];
  for (const { index } of p.dealt) {
    if (index >= k) outOfRange.push(index);
    else if (++(seen[index] as number) > 1) duplicated.add(index);
  }
  const missing = seen.flatMap((count, i) => (count === 0 ? [i] : []));
  if (missing.length + duplicated.size + outOfRange.length === 0) {
    pass('indices');
    return;
  }
  const parts = [
    missing.length > 0 ? `missing ${missing.join(', ')}` : '',
    duplicated.size > 0 ? `repeated ${[...duplicated].join(', ')}` : '',
    outOfRange.length > 0 ? `beyond ${k - 1}: ${outOfRange.join(', ')}` : '',
  ].filter(Boolean);
  fail('indices', {
    code: VerifyFailureCode.INDICES_NOT_CONTIGUOUS,
    missing,
    duplicated: [...duplicated],
    outOfRange,
    message: `dealt indices are not exactly 0..${k - 1} (${parts.join('; ')}): a card was skipped or added`,
  });
}

function checkCommit(p: ParsedRecord, expectedCommit: string | undefined, fail: Fail, pass: Pass): void {
  if (p.serverSeed === undefined) return;
  const computed = commitOf(p.serverSeed);
  let ok = true;
  if (p.seedCommit !== undefined && computed !== p.seedCommit) {
    ok = false;
    fail('commit', {
      code: VerifyFailureCode.COMMIT_MISMATCH,
      against: 'record',
      computed,
      claimed: p.seedCommit,
      message: `SHA-256(server_seed) is ${computed}, but the record's seed_commit is ${p.seedCommit}`,
    });
  }
  if (expectedCommit !== undefined && computed !== expectedCommit) {
    ok = false;
    fail('commit', {
      code: VerifyFailureCode.COMMIT_MISMATCH,
      against: 'expected',
      computed,
      claimed: expectedCommit,
      message: `SHA-256(server_seed) is ${computed}, but the commit received before the deal was ${expectedCommit}`,
    });
  }
  if (ok && (p.seedCommit !== undefined || expectedCommit !== undefined)) pass('commit');
}

/** Returns the recomputed deck seed, the one the cards are checked against. */
function checkDeckSeed(p: ParsedRecord, fail: Fail, pass: Pass): Uint8Array | undefined {
  if (p.serverSeed === undefined || p.handId === undefined || p.clientSeeds === undefined) return undefined;
  const computed = deckSeedOf(p.serverSeed, p.handId, p.clientSeeds);
  if (p.deckSeed !== undefined) {
    if (toHex(computed) === toHex(p.deckSeed)) pass('deckSeed');
    else {
      fail('deckSeed', {
        code: VerifyFailureCode.DECK_SEED_MISMATCH,
        computed: toHex(computed),
        claimed: toHex(p.deckSeed),
        message: `deck_seed recomputes to ${toHex(computed)} from server_seed, client seeds and hand_id, but the record says ${toHex(p.deckSeed)}`,
      });
    }
  }
  return computed;
}

/** Returns how many recorded (not withheld) cards were found at their index. */
function checkCards(p: ParsedRecord, deckSeed: Uint8Array, fail: Fail, pass: Pass): number {
  if (p.dealt === undefined || p.deck === undefined) return 0;
  const { cards, determinedUpTo, problems } = rebuild(deckSeed, p.deck, p.reshuffles ?? [], p.dealt.length);
  for (const problem of problems) {
    fail('reshuffles', {
      code: VerifyFailureCode.RESHUFFLE_INVALID,
      ...problem,
      message: `reshuffle ${problem.reshuffle} (at index ${problem.atIndex}): ${problem.reason}`,
    });
  }
  if (p.reshuffles !== undefined && problems.length === 0) pass('reshuffles');
  let mismatched = false;
  let matched = 0;
  for (const { index, card } of p.dealt) {
    if (index >= determinedUpTo && problems.length > 0) continue;
    const expected = cards[index] ?? null;
    if (card === null) {
      // Withheld: nothing to compare, but the deck must still reach that far.
      if (expected !== null) continue;
      mismatched = true;
      fail('cards', {
        code: VerifyFailureCode.CARD_MISMATCH,
        index,
        recorded: null,
        expected: null,
        message: `index ${index} (withheld) is past the end of the deck`,
      });
      continue;
    }
    if (expected === card) {
      matched++;
      continue;
    }
    mismatched = true;
    fail('cards', {
      code: VerifyFailureCode.CARD_MISMATCH,
      index,
      recorded: card,
      expected,
      message:
        expected === null
          ? `index ${index} (${card}) is past the end of the deck`
          : `index ${index} is ${card} in the record but ${expected} in the deck`,
    });
  }
  if (!mismatched && problems.length === 0) pass('cards');
  return matched;
}
