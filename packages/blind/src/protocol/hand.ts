/**
 * One engine-blind hand's protocol, as the server runs it: a pure state machine over public values
 * only (players' public keys, the deck's ciphertexts, decryption shares, the cards opened), so that it
 * can sit in a table's checkpoint and a new owner can continue it. Nothing here can decrypt a hole card:
 * the owner's own share never reaches it.
 *
 * The steps (docs/fairness.md, "Engine-blind dealing"):
 * 1. `keys`: every participant publishes a per-hand public key with a proof of knowledge.
 * 2. `shuffle`: each participant in turn (the order of `setup.seats`) permutes and re-randomizes the deck
 *    under the joint key, with a shuffle proof.
 * 3. `play`: the table assigns deck positions as it deals (`requestCards`): a hole card to its owner, a
 *    board card to everyone. Every participant but the owner owes a share of a hole card; everyone owes a
 *    share of a board card, which opens when the last one arrives. An owner who shows sends its own share,
 *    and the card opens for everyone. Shares of positions not yet dealt may be sent early (a player who
 *    has folded releases what the board may need and may then leave).
 *
 * Every step has a deadline. A proof that fails, or a step still owed at its deadline (`expire`), fails
 * the hand: the table voids it and returns every stake. Messages out of turn or from a non-participant
 * are refused with a {@link BlindRefusal} and change nothing.
 *
 * Functions follow the engine's trio: `verifyX` throws a refusal, `canX` answers, `x` returns the next
 * state (never mutating the one given) with the step to publish.
 */
import {
  BlindError,
  cardIndex,
  initialDeck,
  jointKey,
  MAX_LAMBDA,
  openCard,
  verifyKey,
  verifyShare,
  verifyShuffle,
  type Ciphertext,
  type DecryptionShare,
  type Hex,
  type KeyProof,
  type ShuffleProof,
} from '../crypto/index.js';

export const BlindRefusalCode = {
  NOT_PARTICIPANT: 'blind_not_participant',
  WRONG_PHASE: 'blind_wrong_phase',
  NOT_YOUR_TURN: 'blind_not_your_turn',
  ALREADY_SENT: 'blind_already_sent',
  BAD_POSITION: 'blind_bad_position',
  BAD_REQUEST: 'blind_bad_request',
} as const;
export type BlindRefusalCode = (typeof BlindRefusalCode)[keyof typeof BlindRefusalCode];

/** A message that cannot be taken now; the state is unchanged. */
export class BlindRefusal extends Error {
  override readonly name = 'BlindRefusal';
  constructor(
    readonly code: BlindRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

export const BlindFailureReason = {
  /** A step was still owed at its deadline. */
  TIMEOUT: 'timeout',
  /** A key, shuffle or share proof did not verify. */
  BAD_PROOF: 'bad_proof',
  /** A position opened to a point that is no card: a deck the proofs let through cannot do that. */
  NOT_A_CARD: 'not_a_card',
} as const;
export type BlindFailureReason = (typeof BlindFailureReason)[keyof typeof BlindFailureReason];

export type BlindStepKind = 'key' | 'shuffle' | 'shares';

export interface BlindFailure {
  readonly reason: BlindFailureReason;
  /** The step that failed. */
  readonly step: BlindStepKind;
  /** The participants to blame: whose proof failed, or who still owed the step. Empty for not_a_card. */
  readonly seats: readonly number[];
}

export interface BlindDeadlines {
  readonly keyMs: number;
  /** Per participant's shuffle. */
  readonly shuffleMs: number;
  /** From a request for cards to the last share it needs. */
  readonly shareMs: number;
}

export const DEFAULT_BLIND_DEADLINES: BlindDeadlines = { keyMs: 2_000, shuffleMs: 5_000, shareMs: 2_000 };

export interface BlindHandSetup {
  readonly tableId: string;
  readonly handId: string;
  /** The participants' seats, in shuffle order. */
  readonly seats: readonly number[];
  /** The deck's cards in their initial order (the engine's `initialDeck`). */
  readonly cards: readonly string[];
  readonly lambda: number;
  readonly deadlines: BlindDeadlines;
}

export type BlindPhase = 'keys' | 'shuffle' | 'play' | 'failed';

/** Where a dealt position goes: a seat (a hole card) or `board` (opened for everyone). */
export type BlindTarget = number | 'board';

export interface BlindPosition {
  readonly to: BlindTarget;
  /** When the shares it needs are due (ms since the epoch, the table's clock). */
  readonly due: number;
  /** The card, once opened for everyone: a board card, or a hole card its owner showed. */
  readonly card?: string;
}

export interface BlindHandState {
  readonly v: 1;
  readonly setup: BlindHandSetup;
  readonly phase: BlindPhase;
  /** Seat → public key, as each arrives. */
  readonly keys: Readonly<Record<string, Hex>>;
  readonly jointKey: Hex | null;
  /** The deck as it stands: the initial deck, then each shuffle's output. */
  readonly deck: readonly Ciphertext[];
  /** How many participants have shuffled (the next one is `setup.seats[shuffled]`). */
  readonly shuffled: number;
  /** Position → its target, once dealt. */
  readonly positions: Readonly<Record<string, BlindPosition>>;
  /** Position → seat → decryption share (the point D), every share verified. */
  readonly shares: Readonly<Record<string, Readonly<Record<string, Hex>>>>;
  /** When the step now owed is due; null when nothing is owed. */
  readonly deadline: number | null;
  readonly failure: BlindFailure | null;
}

/** A step taken, to publish: every participant checks it for themselves. */
export type BlindStep =
  | { readonly kind: 'key'; readonly seat: number; readonly proof: KeyProof }
  | {
      readonly kind: 'shuffle';
      readonly seat: number;
      readonly output: readonly Ciphertext[];
      readonly proof: ShuffleProof;
    }
  | { readonly kind: 'shares'; readonly seat: number; readonly shares: readonly PositionShare[] };

export interface PositionShare {
  readonly position: number;
  readonly share: DecryptionShare;
}

export interface BlindResult {
  readonly state: BlindHandState;
  /** The step accepted; absent when the message failed the hand or repeated shares already held. */
  readonly step?: BlindStep;
  /** Positions opened for everyone by this message. */
  readonly opened: readonly number[];
}

/** The Fiat–Shamir context that binds each proof to its table, hand, step and sender. */
export const blindContext = {
  key: (hand: BlindHandIds, seat: number): string => `felt-eb|${hand.tableId}|${hand.handId}|key|${seat}`,
  shuffle: (hand: BlindHandIds, seat: number): string => `felt-eb|${hand.tableId}|${hand.handId}|shuffle|${seat}`,
  share: (hand: BlindHandIds, position: number, seat: number): string =>
    `felt-eb|${hand.tableId}|${hand.handId}|share|${position}|${seat}`,
} as const;

export type BlindHandIds = Pick<BlindHandSetup, 'tableId' | 'handId'>;

export function startBlindHand(setup: BlindHandSetup, now: number): BlindHandState {
  if (setup.seats.length < 2 || new Set(setup.seats).size !== setup.seats.length) {
    throw new BlindRefusal(BlindRefusalCode.BAD_REQUEST, 'an engine-blind hand needs two or more distinct seats');
  }
  if (!Number.isInteger(setup.lambda) || setup.lambda < 1 || setup.lambda > MAX_LAMBDA) {
    throw new BlindRefusal(BlindRefusalCode.BAD_REQUEST, `the shuffle proof needs 1 <= lambda <= ${MAX_LAMBDA}`);
  }
  return {
    v: 1,
    setup,
    phase: 'keys',
    keys: {},
    jointKey: null,
    deck: initialDeck(setup.cards),
    shuffled: 0,
    positions: {},
    shares: {},
    deadline: now + setup.deadlines.keyMs,
    failure: null,
  };
}

function verifyParticipant(state: BlindHandState, seat: number): void {
  if (!state.setup.seats.includes(seat)) {
    throw new BlindRefusal(BlindRefusalCode.NOT_PARTICIPANT, `seat ${seat} is not in this engine-blind hand`);
  }
}

function verifyPhase(state: BlindHandState, phase: BlindPhase): void {
  if (state.phase !== phase) {
    throw new BlindRefusal(BlindRefusalCode.WRONG_PHASE, `the hand is in ${state.phase}, not ${phase}`);
  }
}

function fail(state: BlindHandState, failure: BlindFailure): BlindResult {
  return { state: { ...state, phase: 'failed', deadline: null, failure }, opened: [] };
}

// ---- keys -----------------------------------------------------------------------------------------

export function verifySubmitKey(state: BlindHandState, seat: number): void {
  verifyParticipant(state, seat);
  verifyPhase(state, 'keys');
  if (state.keys[seat] !== undefined) {
    throw new BlindRefusal(BlindRefusalCode.ALREADY_SENT, `seat ${seat} has sent its key`);
  }
}

export function submitKey(state: BlindHandState, seat: number, proof: KeyProof, now: number): BlindResult {
  verifySubmitKey(state, seat);
  if (!verifyKey(proof, blindContext.key(state.setup, seat))) {
    return fail(state, { reason: BlindFailureReason.BAD_PROOF, step: 'key', seats: [seat] });
  }
  const keys: Record<string, Hex> = { ...state.keys, [seat]: proof.Y };
  const step: BlindStep = { kind: 'key', seat, proof };
  if (state.setup.seats.some((s) => keys[s] === undefined)) {
    return { state: { ...state, keys }, step, opened: [] };
  }
  const joint = jointKey(state.setup.seats.map((s) => keys[s] as Hex));
  return {
    state: {
      ...state,
      keys,
      jointKey: joint,
      phase: 'shuffle',
      deadline: now + state.setup.deadlines.shuffleMs,
    },
    step,
    opened: [],
  };
}

// ---- shuffles -------------------------------------------------------------------------------------

/** The participant whose shuffle is owed, if the hand is shuffling. */
export function shuffler(state: BlindHandState): number | undefined {
  return state.phase === 'shuffle' ? state.setup.seats[state.shuffled] : undefined;
}

export function verifySubmitShuffle(state: BlindHandState, seat: number): void {
  verifyParticipant(state, seat);
  verifyPhase(state, 'shuffle');
  if (shuffler(state) !== seat) {
    throw new BlindRefusal(BlindRefusalCode.NOT_YOUR_TURN, `seat ${shuffler(state)} shuffles now, not ${seat}`);
  }
}

/**
 * What a shuffle's proof is checked against: the worker may run {@link verifyShuffle} off its event
 * loop with these, then pass `verified` to {@link submitShuffle}.
 */
export function shuffleClaim(
  state: BlindHandState,
  seat: number,
): {
  readonly input: readonly Ciphertext[];
  readonly jointKey: Hex;
  readonly context: string;
  readonly lambda: number;
} {
  verifySubmitShuffle(state, seat);
  return {
    input: state.deck,
    jointKey: state.jointKey as Hex,
    context: blindContext.shuffle(state.setup, seat),
    lambda: state.setup.lambda,
  };
}

export function submitShuffle(
  state: BlindHandState,
  seat: number,
  output: readonly Ciphertext[],
  proof: ShuffleProof,
  now: number,
  verified?: boolean,
): BlindResult {
  const claim = shuffleClaim(state, seat);
  const ok =
    verified ?? verifyShuffle(claim.input, output, claim.jointKey, proof, claim.context, { lambda: claim.lambda });
  if (!ok || output.length !== state.deck.length) {
    return fail(state, { reason: BlindFailureReason.BAD_PROOF, step: 'shuffle', seats: [seat] });
  }
  const shuffled = state.shuffled + 1;
  const done = shuffled === state.setup.seats.length;
  return {
    state: {
      ...state,
      deck: output,
      shuffled,
      phase: done ? 'play' : 'shuffle',
      deadline: done ? null : now + state.setup.deadlines.shuffleMs,
    },
    step: { kind: 'shuffle', seat, output, proof },
    opened: [],
  };
}

// ---- dealing and shares ---------------------------------------------------------------------------

/** The seats that owe a share of a position dealt to `to`. */
export function owers(state: BlindHandState, to: BlindTarget): readonly number[] {
  return to === 'board' ? state.setup.seats : state.setup.seats.filter((s) => s !== to);
}

function complete(state: BlindHandState, position: number, to: BlindTarget): boolean {
  const held = state.shares[position] ?? {};
  return owers(state, to).every((s) => held[s] !== undefined);
}

function nextDeadline(state: BlindHandState): number | null {
  let deadline: number | null = null;
  for (const [key, p] of Object.entries(state.positions)) {
    if (complete(state, Number(key), p.to)) continue;
    if (deadline === null || p.due < deadline) deadline = p.due;
  }
  return deadline;
}

export function verifyRequestCards(state: BlindHandState, requests: readonly CardRequest[]): void {
  verifyPhase(state, 'play');
  const seen = new Set<number>();
  for (const { position, to } of requests) {
    if (!Number.isInteger(position) || position < 0 || position >= state.deck.length) {
      throw new BlindRefusal(BlindRefusalCode.BAD_POSITION, `no deck position ${position}`);
    }
    if (state.positions[position] !== undefined || seen.has(position)) {
      throw new BlindRefusal(BlindRefusalCode.BAD_POSITION, `position ${position} is dealt already`);
    }
    if (to !== 'board') verifyParticipant(state, to);
    seen.add(position);
  }
}

export interface CardRequest {
  readonly position: number;
  readonly to: BlindTarget;
}

/**
 * The table deals: each position goes to a seat or to the board, and the shares it needs are due
 * `shareMs` from now. Shares sent early count at once, so a board card may open here.
 */
export function requestCards(state: BlindHandState, requests: readonly CardRequest[], now: number): BlindResult {
  verifyRequestCards(state, requests);
  const positions = { ...state.positions };
  for (const { position, to } of requests) {
    positions[position] = { to, due: now + state.setup.deadlines.shareMs };
  }
  const dealt: BlindHandState = { ...state, positions };
  return openComplete(
    dealt,
    requests.map((r) => r.position),
  );
}

/** Opens every listed position that now has all it needs and is for everyone. */
function openComplete(state: BlindHandState, candidates: readonly number[]): BlindResult {
  const positions = { ...state.positions };
  const opened: number[] = [];
  let lookup: ((point: Hex) => string | undefined) | undefined;
  for (const position of candidates) {
    const p = positions[position];
    if (p === undefined || p.card !== undefined) continue;
    const held = state.shares[position] ?? {};
    const everyone = state.setup.seats.every((s) => held[s] !== undefined);
    if (!everyone) continue;
    let card: string;
    try {
      card = openCard(
        state.deck[position] as Ciphertext,
        state.setup.seats.map((s) => held[s] as Hex),
        (lookup ??= cardIndex(state.setup.cards)),
      );
    } catch (error) {
      if (error instanceof BlindError && error.code === 'not_a_card') {
        return fail(state, { reason: BlindFailureReason.NOT_A_CARD, step: 'shares', seats: [] });
      }
      throw error;
    }
    positions[position] = { ...p, card };
    opened.push(position);
  }
  const next: BlindHandState = { ...state, positions };
  return { state: { ...next, deadline: nextDeadline(next) }, opened };
}

export function verifySubmitShares(state: BlindHandState, seat: number, shares: readonly PositionShare[]): void {
  verifyParticipant(state, seat);
  verifyPhase(state, 'play');
  const seen = new Set<number>();
  for (const { position } of shares) {
    if (!Number.isInteger(position) || position < 0 || position >= state.deck.length || seen.has(position)) {
      throw new BlindRefusal(BlindRefusalCode.BAD_POSITION, `no deck position ${position}, or named twice`);
    }
    seen.add(position);
  }
}

/**
 * A participant's decryption shares: owed shares of dealt positions, its own share of a hole card it
 * shows, or shares of positions not dealt yet (released early). Every share is checked against the
 * sender's key and the position's ciphertext; one that fails fails the hand. Shares already held are
 * skipped, so a message sent again changes nothing.
 */
export function submitShares(state: BlindHandState, seat: number, shares: readonly PositionShare[]): BlindResult {
  verifySubmitShares(state, seat, shares);
  const Y = state.keys[seat] as Hex;
  const fresh: PositionShare[] = [];
  for (const entry of shares) {
    const held = state.shares[entry.position]?.[seat];
    if (held !== undefined) continue;
    const ct = state.deck[entry.position] as Ciphertext;
    if (!verifyShare(Y, ct, entry.share, blindContext.share(state.setup, entry.position, seat))) {
      return fail(state, { reason: BlindFailureReason.BAD_PROOF, step: 'shares', seats: [seat] });
    }
    fresh.push(entry);
  }
  if (fresh.length === 0) return { state, opened: [] };
  const table = { ...state.shares };
  for (const { position, share } of fresh) table[position] = { ...table[position], [seat]: share.D };
  const result = openComplete(
    { ...state, shares: table },
    fresh.map((f) => f.position),
  );
  return { ...result, step: { kind: 'shares', seat, shares: fresh } };
}

// ---- the clock ------------------------------------------------------------------------------------

/** What each participant still owes now. */
export function owing(state: BlindHandState): ReadonlyMap<number, Owed> {
  const out = new Map<number, Owed>();
  const add = (seat: number, f: (o: Owed) => Owed): void => {
    out.set(seat, f(out.get(seat) ?? { key: false, shuffle: false, positions: [] }));
  };
  if (state.phase === 'keys') {
    for (const s of state.setup.seats) if (state.keys[s] === undefined) add(s, (o) => ({ ...o, key: true }));
  } else if (state.phase === 'shuffle') {
    const s = shuffler(state);
    if (s !== undefined) add(s, (o) => ({ ...o, shuffle: true }));
  } else if (state.phase === 'play') {
    for (const [key, p] of Object.entries(state.positions)) {
      const position = Number(key);
      const held = state.shares[position] ?? {};
      for (const s of owers(state, p.to)) {
        if (held[s] === undefined) add(s, (o) => ({ ...o, positions: [...o.positions, position] }));
      }
    }
  }
  return out;
}

export interface Owed {
  readonly key: boolean;
  readonly shuffle: boolean;
  /** Dealt positions whose share it owes. */
  readonly positions: readonly number[];
}

/** Fails the hand if a step is still owed at its deadline; otherwise returns the state unchanged. */
export function expire(state: BlindHandState, now: number): BlindResult {
  if (state.deadline === null || now < state.deadline || state.phase === 'failed') return { state, opened: [] };
  const late: number[] = [];
  let step: BlindStepKind = 'shares';
  if (state.phase === 'keys') {
    step = 'key';
    for (const s of state.setup.seats) if (state.keys[s] === undefined) late.push(s);
  } else if (state.phase === 'shuffle') {
    step = 'shuffle';
    late.push(shuffler(state) as number);
  } else {
    for (const [key, p] of Object.entries(state.positions)) {
      if (p.due > now) continue;
      const held = state.shares[Number(key)] ?? {};
      for (const s of owers(state, p.to)) if (held[s] === undefined && !late.includes(s)) late.push(s);
    }
    if (late.length === 0) return { state: { ...state, deadline: nextDeadline(state) }, opened: [] };
  }
  return fail(state, { reason: BlindFailureReason.TIMEOUT, step, seats: late.sort((a, b) => a - b) });
}

// ---- reading --------------------------------------------------------------------------------------

/** Is every share a hole card needs (all but its owner's) in, so that its owner can read it? */
export function delivered(state: BlindHandState, position: number): boolean {
  const p = state.positions[position];
  return p !== undefined && complete(state, position, p.to);
}

/** The cards open for everyone, by position. */
export function openedCards(state: BlindHandState): ReadonlyMap<number, string> {
  const out = new Map<number, string>();
  for (const [key, p] of Object.entries(state.positions)) if (p.card !== undefined) out.set(Number(key), p.card);
  return out;
}
