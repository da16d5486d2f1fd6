import { initialDeck, type Card, type DeckKind } from '../cards.js';
import { SetupError, SetupErrorCode } from '../errors.js';
import { HandDeck, hexToBytes, shuffleDeck, type DealtCard, type DeckReshuffle } from '../fairness/index.js';

/**
 * The deck a hand deals from. With the hand's deck seed it is the fairness module's {@link HandDeck}, which
 * can reshuffle the discards inside the felt-deck-v1 byte stream (draw games) so that the reveal record
 * still verifies; the seed must reproduce the setup's deck order exactly. Without a seed (a rigged test
 * deck, a hand replayed from a PHH file) it deals the given order and cannot reshuffle.
 */
export class HandDealer {
  readonly #order: readonly Card[];
  readonly #deck: HandDeck | null;
  #next = 0;
  readonly #dealt: DealtCard[] = [];
  /** Blind dealing: the deck's size; the cards themselves are unknown. Null for a known deck. */
  #blindSize: number | null = null;

  /**
   * A dealer for blind dealing (`HandSetup.dealing: 'blind'`): it hands out deck indices only, in the
   * same order a known deck would be dealt, and cannot reshuffle.
   */
  static blind(kind: DeckKind): HandDealer {
    const dealer = new HandDealer([], kind);
    dealer.#blindSize = initialDeck(kind).length;
    return dealer;
  }

  constructor(order: readonly Card[], kind: DeckKind, deckSeed?: string) {
    this.#order = order;
    if (deckSeed === undefined) {
      this.#deck = null;
      return;
    }
    let seed: Uint8Array;
    try {
      seed = hexToBytes(deckSeed);
      const derived = shuffleDeck(seed, kind);
      if (derived.some((card, i) => card !== order[i])) throw new Error('the order differs');
    } catch (cause) {
      throw new SetupError(SetupErrorCode.INVALID_DECK, 'the deck seed does not derive the setup deck', {}, { cause });
    }
    this.#deck = new HandDeck(seed, kind);
  }

  get canReshuffle(): boolean {
    return this.#deck !== null;
  }

  /** Cards left in the stub. */
  get remaining(): number {
    if (this.#blindSize !== null) return this.#blindSize - this.#next;
    return this.#deck !== null ? this.#deck.remaining : this.#order.length - this.#next;
  }

  /** Blind dealing: the next deck index, whose card nobody knows yet. */
  dealIndex(): number {
    if (this.#blindSize === null) throw new RangeError('only a blind dealer deals bare indices');
    if (this.#next >= this.#blindSize) throw new RangeError(`deck exhausted at index ${this.#next}`);
    return this.#next++;
  }

  deal(): DealtCard {
    if (this.#blindSize !== null) throw new RangeError('a blind dealer knows no cards');
    let dealt: DealtCard;
    if (this.#deck !== null) dealt = this.#deck.deal();
    else {
      const card = this.#order[this.#next];
      if (card === undefined) throw new RangeError(`deck exhausted at index ${this.#next}`);
      dealt = { index: this.#next++, card };
    }
    this.#dealt.push(dealt);
    return dealt;
  }

  /** Shuffles `discards` and the rest of the stub into a new stub (docs/fairness.md, draw games). */
  reshuffle(discards: readonly Card[]): DeckReshuffle {
    if (this.#deck === null) {
      throw new SetupError(SetupErrorCode.DECK_SEED_REQUIRED, 'a reshuffle needs the hand’s deck seed');
    }
    this.#deck.reshuffle(discards);
    return this.#deck.reshuffles.at(-1)!;
  }

  /** Every dealt card with its deck index, in dealing order. */
  get dealt(): readonly DealtCard[] {
    return this.#dealt;
  }

  get reshuffles(): DeckReshuffle[] {
    return this.#deck?.reshuffles ?? [];
  }
}
