import { initialDeck, isCard, type Card, type DeckKind } from '../cards.js';
import {
  DERIVATION_VERSION,
  type DeckStream,
  fisherYates,
  shuffleDeckWithStream,
  type DerivationVersion,
} from './derivation.js';
import { FairnessError, FairnessErrorCode } from './errors.js';
import { bytesToHex, hexToBytes } from './hex.js';

/** A card taken from the deck, with its deck index (docs/fairness.md, derivation step 10). */
export interface DealtCard {
  index: number;
  card: Card;
}

/**
 * One draw-game reshuffle (docs/fairness.md, "Draw games"). `atIndex` is the number of cards dealt before
 * it, so the first card of the new pile gets deck index `atIndex`. `discards` are the dealt cards that went
 * back in, in canonical order; any stub cards still undealt at `atIndex` go in as well, implicitly.
 */
export interface DeckReshuffle {
  atIndex: number;
  discards: Card[];
}

function canonicalRanks(kind: DeckKind): Map<Card, number> {
  return new Map(initialDeck(kind).map((card, i) => [card, i]));
}

/**
 * Sorts cards into the initial-deck order (suit c d h s, then rank ascending), refusing cards outside the
 * deck and duplicates.
 */
export function canonicalOrder(cards: readonly Card[], kind: DeckKind): Card[] {
  const rank = canonicalRanks(kind);
  const seen = new Set<Card>();
  for (const card of cards) {
    if (!isCard(card) || !rank.has(card)) {
      throw new FairnessError(FairnessErrorCode.INVALID_RESHUFFLE, 'card is not in this deck', { card, kind });
    }
    if (seen.has(card)) {
      throw new FairnessError(FairnessErrorCode.INVALID_RESHUFFLE, 'card appears twice in a reshuffle', { card });
    }
    seen.add(card);
  }
  return [...cards].sort((a, b) => (rank.get(a) as number) - (rank.get(b) as number));
}

/**
 * The draw-game reshuffle: put `cards` in canonical (initial-deck) order, then Fisher–Yates them with draws
 * continuing `stream` where it stands. Sorting first makes the result depend only on *which* cards go in,
 * never on the order the dealer happened to collect them, so nobody can steer the new pile by ordering it.
 */
export function reshuffle(stream: DeckStream, cards: readonly Card[], kind: DeckKind): Card[] {
  return fisherYates(canonicalOrder(cards, kind), stream);
}

/** Checkpoint form of a {@link HandDeck}: enough to rebuild it exactly, and nothing that could disagree. */
export interface HandDeckState {
  version: DerivationVersion;
  kind: DeckKind;
  /** hex */
  deckSeed: string;
  dealtCount: number;
  reshuffles: DeckReshuffle[];
  /** Stream bytes consumed; restoring recomputes it and refuses a state whose value differs. */
  streamPosition: number;
}

/**
 * The deck of one hand as the engine deals it: the felt-deck-v1 shuffled order, dealt from index 0 upward, plus
 * the draw-game reshuffle extension. Deck indices never restart: after a reshuffle the new pile continues the
 * numbering, so the dealt indices stay exactly 0..k−1 and a verifier can rebuild every card.
 */
export class HandDeck {
  readonly #seed: Uint8Array;
  readonly #kind: DeckKind;
  readonly #stream: DeckStream;
  /** The virtual deck: the initial shuffle followed by each reshuffled pile. */
  #cards: Card[];
  #next = 0;
  readonly #reshuffles: DeckReshuffle[] = [];

  constructor(deckSeed: Uint8Array, kind: DeckKind) {
    const { order, stream } = shuffleDeckWithStream(deckSeed, kind);
    this.#seed = Uint8Array.from(deckSeed);
    this.#kind = kind;
    this.#cards = order;
    this.#stream = stream;
  }

  get kind(): DeckKind {
    return this.#kind;
  }

  /** Cards dealt so far, which is also the deck index of the next card. */
  get nextIndex(): number {
    return this.#next;
  }

  /** Cards left in the stub. */
  get remaining(): number {
    return this.#cards.length - this.#next;
  }

  get streamPosition(): number {
    return this.#stream.position;
  }

  get dealt(): DealtCard[] {
    return this.#cards.slice(0, this.#next).map((card, index) => ({ index, card }));
  }

  get reshuffles(): DeckReshuffle[] {
    return this.#reshuffles.map((r) => ({ atIndex: r.atIndex, discards: [...r.discards] }));
  }

  deal(): DealtCard {
    const card = this.#cards[this.#next];
    if (card === undefined) {
      throw new FairnessError(FairnessErrorCode.DECK_EXHAUSTED, 'the stub is empty', {
        index: this.#next,
        kind: this.#kind,
      });
    }
    return { index: this.#next++, card };
  }

  dealMany(n: number): DealtCard[] {
    if (n > this.remaining) {
      throw new FairnessError(FairnessErrorCode.DECK_EXHAUSTED, 'not enough cards in the stub', {
        wanted: n,
        remaining: this.remaining,
      });
    }
    const out: DealtCard[] = [];
    for (let i = 0; i < n; i++) out.push(this.deal());
    return out;
  }

  /**
   * Reshuffles `discards` together with whatever is left of the stub into a new pile that the next deal
   * draws from. Call it when the stub cannot cover a draw; whether the last stub card is dealt first or goes
   * into the pile is the game's rule, and both are expressible. Each discard must be a card that has been
   * dealt and is not back in the stub already. Returns the number of cards in the new pile.
   */
  reshuffle(discards: readonly Card[]): number {
    const at = this.#next;
    const previous = this.#reshuffles.at(-1);
    if (previous !== undefined && previous.atIndex >= at) {
      throw new FairnessError(FairnessErrorCode.INVALID_RESHUFFLE, 'no card was dealt since the last reshuffle', {
        atIndex: at,
      });
    }
    const sorted = canonicalOrder(discards, this.#kind);
    for (const card of sorted) {
      const last = this.#cards.lastIndexOf(card);
      if (last < 0 || last >= at) {
        throw new FairnessError(
          FairnessErrorCode.INVALID_RESHUFFLE,
          'a discard must be a dealt card that is not in the stub',
          { card, atIndex: at },
        );
      }
    }
    const pile = [...this.#cards.slice(at), ...sorted];
    if (pile.length === 0) {
      throw new FairnessError(FairnessErrorCode.INVALID_RESHUFFLE, 'nothing to reshuffle', { atIndex: at });
    }
    this.#cards = [...this.#cards.slice(0, at), ...reshuffle(this.#stream, pile, this.#kind)];
    this.#reshuffles.push({ atIndex: at, discards: sorted });
    return pile.length;
  }

  toJSON(): HandDeckState {
    return {
      version: DERIVATION_VERSION,
      kind: this.#kind,
      deckSeed: bytesToHex(this.#seed),
      dealtCount: this.#next,
      reshuffles: this.reshuffles,
      streamPosition: this.#stream.position,
    };
  }

  /**
   * Rebuilds a deck from its checkpoint by replaying the derivation, so a restored hand deals exactly the
   * cards the original would have. A state that does not replay consistently is refused, not patched.
   */
  static fromJSON(state: HandDeckState): HandDeck {
    const fail = (message: string, details: Record<string, unknown> = {}): never => {
      throw new FairnessError(FairnessErrorCode.INVALID_DECK_STATE, message, details);
    };
    if (state.version !== DERIVATION_VERSION) fail('unknown derivation version', { version: state.version });
    if (state.kind !== 'standard52' && state.kind !== 'short36') fail('unknown deck kind', { kind: state.kind });
    const deck = new HandDeck(hexToBytes(state.deckSeed), state.kind);
    try {
      for (const r of state.reshuffles) {
        if (!Number.isInteger(r.atIndex) || r.atIndex > deck.#cards.length || r.atIndex > state.dealtCount) {
          fail('reshuffle index out of range', { atIndex: r.atIndex });
        }
        deck.#next = r.atIndex;
        deck.reshuffle(r.discards);
      }
    } catch (err) {
      if (err instanceof FairnessError && err.code === FairnessErrorCode.INVALID_DECK_STATE) throw err;
      throw new FairnessError(FairnessErrorCode.INVALID_DECK_STATE, 'reshuffles do not replay', {}, { cause: err });
    }
    if (!Number.isInteger(state.dealtCount) || state.dealtCount < 0 || state.dealtCount > deck.#cards.length) {
      fail('dealt count out of range', { dealtCount: state.dealtCount });
    }
    deck.#next = state.dealtCount;
    if (deck.#stream.position !== state.streamPosition) {
      fail('stream position does not match the replayed reshuffles', {
        expected: deck.#stream.position,
        actual: state.streamPosition,
      });
    }
    return deck;
  }
}
