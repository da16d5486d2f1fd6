import { DeckKind, FELT_DECK_V1, fromHex, unshuffledDeck } from './derive.js';

/**
 * A reveal record: what `seed_reveal` publishes and the hand record keeps (docs/fairness.md, derivation
 * step 11), as written by `felt-sim --reveals` and served by the lobby's verification endpoint.
 */
export interface RevealRecord {
  hand_id: string;
  /** "sha256:" + 64 hex */
  seed_commit: string;
  /** 64 hex */
  server_seed: string;
  client_seeds: { seat: number; seed: string }[];
  /** 64 hex */
  deck_seed: string;
  variant: string;
  version: string;
  /** The deck definition. When absent it is inferred from `variant` (only short deck uses 36 cards). */
  deck?: DeckKind;
  /**
   * Every dealt card with its deck index. `card` is null where it is withheld: the lobby's history API
   * serves the record as the requesting player saw the hand, so cards that player never saw keep their
   * index but not their value. Only `card` may be null.
   */
  dealt: { index: number; card: string | null }[];
  /** Draw games only: reshuffles of the discards, in the order they happened. */
  reshuffles?: { at_index: number; discards: string[] }[];
}

/** A field that could not be used, named by its JSON path. */
export interface MalformedField {
  field: string;
  problem: string;
}

/** The usable parts of a record; a field is absent when it was malformed. */
export interface ParsedRecord {
  handId?: string;
  seedCommit?: string;
  serverSeed?: Uint8Array;
  clientSeeds?: { seat: number; seed: Uint8Array }[];
  deckSeed?: Uint8Array;
  variant?: string;
  version?: string;
  deck?: DeckKind;
  /** `card` null: withheld (not checked, the index still is). */
  dealt?: { index: number; card: string | null }[];
  reshuffles?: { atIndex: number; discards: string[] }[];
}

const HAND_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const COMMIT = /^sha256:[0-9a-f]{64}$/;
const ALL_CARDS = new Set(unshuffledDeck(DeckKind.STANDARD52));
const SHORT_DECK_VARIANTS = new Set(['shortdeck', 'short', 'shortdeckholdem', '6plus', 'sixplus', '6plusholdem']);

/** Short deck is the only 36-card game; every other Felt variant deals from 52 cards. */
export function deckForVariant(variant: string): DeckKind {
  const key = variant.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SHORT_DECK_VARIANTS.has(key) ? DeckKind.SHORT36 : DeckKind.STANDARD52;
}

export function isCardString(value: unknown): value is string {
  return typeof value === 'string' && ALL_CARDS.has(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Reads what it can and names everything it cannot; never throws on a plain object. */
export function parseRevealRecord(raw: Record<string, unknown>): { parsed: ParsedRecord; malformed: MalformedField[] } {
  const parsed: ParsedRecord = {};
  const malformed: MalformedField[] = [];
  const bad = (field: string, problem: string): void => void malformed.push({ field, problem });

  const seed32 = (value: unknown, field: string): Uint8Array | undefined => {
    const bytes = typeof value === 'string' ? fromHex(value) : null;
    if (bytes === null || bytes.length !== 32) {
      bad(field, 'must be 64 hex characters (32 bytes)');
      return undefined;
    }
    return bytes;
  };

  if (typeof raw.hand_id !== 'string' || raw.hand_id.length === 0 || raw.hand_id.includes('\0')) {
    bad('hand_id', 'must be a non-empty string');
  } else {
    parsed.handId = raw.hand_id;
    // Still verifiable (the derivation hashes the string as given), but the derivation fixes the format.
    if (!HAND_ID.test(raw.hand_id)) bad('hand_id', 'must be a lowercase hyphenated UUID');
  }

  if (typeof raw.seed_commit === 'string' && COMMIT.test(raw.seed_commit.toLowerCase())) {
    parsed.seedCommit = raw.seed_commit.toLowerCase();
  } else bad('seed_commit', 'must be "sha256:" followed by 64 hex characters');

  const serverSeed = seed32(raw.server_seed, 'server_seed');
  if (serverSeed) parsed.serverSeed = serverSeed;
  const deckSeed = seed32(raw.deck_seed, 'deck_seed');
  if (deckSeed) parsed.deckSeed = deckSeed;

  if (!Array.isArray(raw.client_seeds)) bad('client_seeds', 'must be an array (empty when no seed was accepted)');
  else {
    const seeds: { seat: number; seed: Uint8Array }[] = [];
    const seats = new Set<number>();
    let usable = true;
    raw.client_seeds.forEach((entry: unknown, i) => {
      const at = `client_seeds[${i}]`;
      if (!isObject(entry)) {
        bad(at, 'must be an object {seat, seed}');
        usable = false;
        return;
      }
      const seat = entry.seat;
      if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat > 255) {
        bad(`${at}.seat`, 'must be an integer in 0..255 (it is mixed in as one byte)');
        usable = false;
      } else if (seats.has(seat)) {
        bad(`${at}.seat`, `seat ${seat} has more than one seed`);
        usable = false;
      } else seats.add(seat);
      const seed = seed32(entry.seed, `${at}.seed`);
      if (seed === undefined) usable = false;
      if (usable && typeof seat === 'number' && seed) seeds.push({ seat, seed });
    });
    if (usable) parsed.clientSeeds = seeds;
  }

  if (typeof raw.variant === 'string') parsed.variant = raw.variant;
  else bad('variant', 'must be a string');
  if (typeof raw.version === 'string') parsed.version = raw.version;
  else bad('version', `must be a string such as "${FELT_DECK_V1}"`);

  if (raw.deck !== undefined) {
    if (raw.deck === DeckKind.STANDARD52 || raw.deck === DeckKind.SHORT36) {
      parsed.deck = raw.deck;
      if (
        parsed.variant !== undefined &&
        deckForVariant(parsed.variant) === DeckKind.SHORT36 &&
        raw.deck !== DeckKind.SHORT36
      ) {
        bad('deck', `variant "${parsed.variant}" is a 36-card game`);
      }
    } else bad('deck', 'must be "standard52" or "short36"');
  } else if (parsed.variant !== undefined) parsed.deck = deckForVariant(parsed.variant);

  if (!Array.isArray(raw.dealt)) bad('dealt', 'must be an array of {index, card}');
  else {
    const dealt: { index: number; card: string | null }[] = [];
    let usable = true;
    raw.dealt.forEach((entry: unknown, i) => {
      const at = `dealt[${i}]`;
      if (!isObject(entry)) {
        bad(at, 'must be an object {index, card}');
        usable = false;
        return;
      }
      if (!isIndex(entry.index)) {
        bad(`${at}.index`, 'must be a non-negative integer');
        usable = false;
      }
      // null, and only null, marks a withheld card; a missing card is malformed.
      const card = entry.card;
      if (card !== null && !isCardString(card)) {
        bad(`${at}.card`, 'must be a card such as "As" or "Td", or null where it is withheld');
        usable = false;
      }
      if (isIndex(entry.index) && (card === null || isCardString(card))) dealt.push({ index: entry.index, card });
    });
    if (usable) parsed.dealt = dealt;
  }

  if (raw.reshuffles !== undefined) {
    if (!Array.isArray(raw.reshuffles)) bad('reshuffles', 'must be an array of {at_index, discards}');
    else {
      const out: { atIndex: number; discards: string[] }[] = [];
      let usable = true;
      raw.reshuffles.forEach((entry: unknown, i) => {
        const at = `reshuffles[${i}]`;
        if (!isObject(entry)) {
          bad(at, 'must be an object {at_index, discards}');
          usable = false;
          return;
        }
        if (!isIndex(entry.at_index)) {
          bad(`${at}.at_index`, 'must be a non-negative integer');
          usable = false;
        }
        const discards = entry.discards;
        if (!Array.isArray(discards) || !discards.every(isCardString)) {
          bad(`${at}.discards`, 'must be an array of cards');
          usable = false;
        } else if (isIndex(entry.at_index)) out.push({ atIndex: entry.at_index, discards: [...discards] });
      });
      if (usable) parsed.reshuffles = out;
    }
  }
  return { parsed, malformed };
}
