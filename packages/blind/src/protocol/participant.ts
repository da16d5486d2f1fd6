/**
 * A player's side of one engine-blind hand, for the SDK in the browser and in Node: it holds the
 * hand's secret key (which never leaves it), answers what the table says it owes, reads its own hole
 * cards, shows them on request, and checks every step the table relays against its own copy of the
 * deck, so that a table that tampers with the deck or a share is caught by the player, not only by the
 * server's own checks.
 */
import {
  cardIndex,
  decryptionShare,
  generateKey,
  initialDeck,
  jointKey,
  openCard,
  ownShare,
  proveKey,
  shuffleDeck,
  verifyKey,
  verifyShare,
  verifyShuffle,
  type Ciphertext,
  type Hex,
  type KeyProof,
  type PlayerKey,
  type Rng,
  type ShuffleProof,
} from '../crypto/index.js';
import { blindContext, type BlindHandSetup, type BlindStep, type PositionShare } from './hand.js';
import type { BlindView } from './view.js';

export type BlindMessage =
  | { readonly kind: 'key'; readonly proof: KeyProof }
  | { readonly kind: 'shuffle'; readonly output: readonly Ciphertext[]; readonly proof: ShuffleProof }
  | { readonly kind: 'shares'; readonly shares: readonly PositionShare[] };

/** The part of a hand's setup a participant needs; the view carries all of it but the cards. */
export type ParticipantSetup = Pick<BlindHandSetup, 'tableId' | 'handId' | 'seats' | 'cards' | 'lambda'>;

export interface AuditFailure {
  readonly step: BlindStep['kind'] | 'deck';
  readonly seat: number | null;
  readonly detail: string;
}

function sameDeck(a: readonly Ciphertext[], b: readonly Ciphertext[]): boolean {
  return a.length === b.length && a.every((ct, i) => ct.c1 === b[i]?.c1 && ct.c2 === b[i]?.c2);
}

export class BlindParticipant {
  readonly #key: PlayerKey;
  readonly #rng: Rng | undefined;
  readonly #lookup: (point: Hex) => string | undefined;
  /** Steps this participant has sent and the table has not yet shown taken, by `kind` or `share:<p>`. */
  readonly #sent = new Set<string>();
  // The audit: this participant's own copy of the hand, built from the steps relayed to it.
  readonly #keys = new Map<number, Hex>();
  #deck: readonly Ciphertext[];
  #shuffled = 0;
  #audited = true;
  #failure: AuditFailure | null = null;

  constructor(
    readonly setup: ParticipantSetup,
    readonly seat: number,
    options: { readonly rng?: Rng; readonly key?: PlayerKey } = {},
  ) {
    this.#rng = options.rng;
    this.#key = options.key ?? generateKey(options.rng);
    this.#lookup = cardIndex(setup.cards);
    this.#deck = initialDeck(setup.cards);
  }

  get publicKey(): Hex {
    return this.#key.Y;
  }

  /** The first thing the audit caught, if any: a participant that caught one sends nothing more. */
  get failure(): AuditFailure | null {
    return this.#failure;
  }

  /** False once a step was missed (a reconnect): the rest of the hand is then checked from the views. */
  get audited(): boolean {
    return this.#audited;
  }

  /**
   * Checks a step the table relays, in the order it was taken. A step that does not verify is recorded
   * as {@link failure}, and the participant stops answering, so the hand fails at its deadline.
   */
  observe(step: BlindStep): void {
    if (this.#failure !== null) return;
    const { setup } = this;
    if (step.kind === 'key') {
      if (!verifyKey(step.proof, blindContext.key(setup, step.seat))) {
        this.#failure = { step: 'key', seat: step.seat, detail: 'key proof does not verify' };
        return;
      }
      this.#keys.set(step.seat, step.proof.Y);
      return;
    }
    if (step.kind === 'shuffle') {
      const expected = setup.seats[this.#shuffled];
      const joint = this.#joint();
      if (!this.#audited || joint === null || expected !== step.seat) {
        this.#audited = false;
        return;
      }
      const ok = verifyShuffle(this.#deck, step.output, joint, step.proof, blindContext.shuffle(setup, step.seat), {
        lambda: setup.lambda,
      });
      if (!ok) {
        this.#failure = { step: 'shuffle', seat: step.seat, detail: 'shuffle proof does not verify' };
        return;
      }
      this.#deck = step.output;
      this.#shuffled += 1;
      return;
    }
    const Y = this.#keys.get(step.seat);
    if (Y === undefined || !this.#audited) return;
    for (const { position, share } of step.shares) {
      const ct = this.#deck[position];
      const context = blindContext.share(setup, position, step.seat);
      if (ct === undefined || !verifyShare(Y, ct, share, context)) {
        this.#failure = { step: 'shares', seat: step.seat, detail: `share of position ${position} does not verify` };
        return;
      }
    }
  }

  #joint(): Hex | null {
    if (this.setup.seats.some((s) => !this.#keys.has(s))) return null;
    return jointKey(this.setup.seats.map((s) => this.#keys.get(s) as Hex));
  }

  /** Forget what was sent, so that what the table still owes is sent again (after a reconnect). */
  resend(): void {
    this.#sent.clear();
  }

  /**
   * What to send now, from the table's view: the key, the shuffle when it is this seat's turn, the
   * shares it owes. Nothing once the audit failed, or when the view's deck is not the deck the steps
   * built (a table that changed a ciphertext).
   */
  next(view: BlindView): BlindMessage[] {
    if (this.#failure !== null || view.owed === null || view.phase === 'failed') return [];
    if (view.tableId !== this.setup.tableId || view.handId !== this.setup.handId) return [];
    this.#checkDeck(view);
    if (this.#failure !== null) return [];
    const out: BlindMessage[] = [];
    if (view.owed.key && !this.#sent.has('key')) {
      this.#sent.add('key');
      out.push({ kind: 'key', proof: proveKey(this.#key, blindContext.key(this.setup, this.seat), this.#rng) });
    }
    if (view.owed.shuffle && view.jointKey !== null && !this.#sent.has(`shuffle`)) {
      this.#sent.add('shuffle');
      const { output, proof } = shuffleDeck(view.deck, view.jointKey, blindContext.shuffle(this.setup, this.seat), {
        lambda: view.lambda,
        ...(this.#rng === undefined ? {} : { rng: this.#rng }),
      });
      out.push({ kind: 'shuffle', output, proof });
    }
    const positions = view.owed.positions.filter((p) => !this.#sent.has(`share:${p}`));
    if (positions.length > 0) out.push(this.#shares(view, positions));
    return out;
  }

  #checkDeck(view: BlindView): void {
    if (!this.#audited) return;
    if (view.shuffled === this.#shuffled && !sameDeck(view.deck, this.#deck)) {
      this.#failure = { step: 'deck', seat: null, detail: 'the deck sent is not the deck the shuffles made' };
    }
  }

  #shares(view: BlindView, positions: readonly number[]): BlindMessage {
    const shares = positions.map((position): PositionShare => {
      this.#sent.add(`share:${position}`);
      const ct = view.deck[position] as Ciphertext;
      return {
        position,
        share: decryptionShare(this.#key, ct, blindContext.share(this.setup, position, this.seat), this.#rng),
      };
    });
    return { kind: 'shares', shares };
  }

  /** This seat's hole cards it can read now: every other participant's share is in. */
  holeCards(view: BlindView): ReadonlyMap<number, string> {
    const out = new Map<number, string>();
    for (const p of view.positions) {
      if (p.to !== this.seat) continue;
      const others = view.seats.filter((s) => s !== this.seat).map((s) => p.shares[s]);
      if (others.some((d) => d === undefined)) continue;
      const ct = view.deck[p.position] as Ciphertext;
      out.set(p.position, openCard(ct, [...(others as Hex[]), ownShare(this.#key, ct)], this.#lookup));
    }
    return out;
  }

  /** Shows the listed hole cards of this seat: its own shares, with which everyone opens them. */
  show(view: BlindView, positions: readonly number[]): BlindMessage {
    const own = new Set(view.positions.filter((p) => p.to === this.seat).map((p) => p.position));
    return this.#shares(
      view,
      positions.filter((p) => own.has(p)),
    );
  }

  /**
   * Shares of every position not dealt yet, sent at once so that the board can open without this seat
   * (a folded player may then leave): none of them can be one of this seat's own cards later, since a
   * folded seat is dealt nothing more.
   */
  release(view: BlindView): BlindMessage | null {
    const dealt = new Set(view.positions.map((p) => p.position));
    const rest: number[] = [];
    for (let p = 0; p < view.deck.length; p += 1) if (!dealt.has(p) && !this.#sent.has(`share:${p}`)) rest.push(p);
    return rest.length === 0 ? null : this.#shares(view, rest);
  }
}
