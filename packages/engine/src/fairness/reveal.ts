import type { Card, DeckKind } from '../cards.js';
import {
  DERIVATION_VERSION,
  assertHandId,
  deriveDeckSeed,
  seedCommit,
  shuffleDeckWithStream,
  sortClientSeeds,
  type ClientSeed,
  type DerivationVersion,
} from './derivation.js';
import { bytesToHex } from './hex.js';
import type { DealtCard, DeckReshuffle } from './reshuffle.js';

/** Everything needed to verify a hand afterwards; also the input to deal one. */
export interface DeckCommitment {
  handId: string;
  serverSeed: Uint8Array;
  /** The accepted client seeds, seat ascending. */
  clientSeeds: ClientSeed[];
  deckSeed: Uint8Array;
  seedCommit: string;
  kind: DeckKind;
  version: DerivationVersion;
}

/**
 * Fixes a hand's deck: commit, deck seed and shuffled order. `streamPosition` is where the shuffle left the
 * byte stream; only draw games need it (or use {@link HandDeck}, which tracks it).
 */
export function prepareDeck(input: {
  handId: string;
  serverSeed: Uint8Array;
  clientSeeds: readonly ClientSeed[];
  kind: DeckKind;
}): { commitment: DeckCommitment; order: Card[]; streamPosition: number } {
  assertHandId(input.handId);
  const clientSeeds = sortClientSeeds(input.clientSeeds).map(({ seat, seed }) => ({
    seat,
    seed: Uint8Array.from(seed),
  }));
  const serverSeed = Uint8Array.from(input.serverSeed);
  const deckSeed = deriveDeckSeed(serverSeed, input.handId, clientSeeds);
  const { order, stream } = shuffleDeckWithStream(deckSeed, input.kind);
  return {
    commitment: {
      handId: input.handId,
      serverSeed,
      clientSeeds,
      deckSeed,
      seedCommit: seedCommit(serverSeed),
      kind: input.kind,
      version: DERIVATION_VERSION,
    },
    order,
    streamPosition: stream.position,
  };
}

/** A reshuffle as it appears in a reveal record. */
export interface RevealReshuffle {
  /** Cards dealt before the reshuffle; the new pile's first card has this deck index. */
  at_index: number;
  /** Dealt cards put back, in initial-deck order. Undealt stub cards at `at_index` go in implicitly. */
  discards: Card[];
}

/** Reveal record as written by `felt-sim --reveals` and checked by `felt verify`. */
export interface RevealRecord {
  hand_id: string;
  seed_commit: string;
  server_seed: string;
  client_seeds: { seat: number; seed: string }[];
  deck_seed: string;
  variant: string;
  version: string;
  /** The deck definition; `toRevealRecord` always writes it so a verifier need not infer it from `variant`. */
  deck?: DeckKind;
  dealt: { index: number; card: Card }[];
  /** Present only for hands that reshuffled (draw games); absent, the record is plain felt-deck-v1. */
  reshuffles?: RevealReshuffle[];
}

export function toRevealRecord(
  commitment: DeckCommitment,
  variant: string,
  dealt: readonly DealtCard[],
  reshuffles: readonly DeckReshuffle[] = [],
): RevealRecord {
  const record: RevealRecord = {
    hand_id: commitment.handId,
    seed_commit: commitment.seedCommit,
    server_seed: bytesToHex(commitment.serverSeed),
    client_seeds: [...commitment.clientSeeds]
      .sort((a, b) => a.seat - b.seat)
      .map(({ seat, seed }) => ({ seat, seed: bytesToHex(seed) })),
    deck_seed: bytesToHex(commitment.deckSeed),
    variant,
    version: commitment.version,
    deck: commitment.kind,
    dealt: dealt.map(({ index, card }) => ({ index, card })),
  };
  if (reshuffles.length > 0) {
    record.reshuffles = reshuffles.map((r) => ({ at_index: r.atIndex, discards: [...r.discards] }));
  }
  return record;
}
