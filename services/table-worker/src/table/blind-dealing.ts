import {
  blindView,
  delivered,
  expire,
  requestCards,
  shuffleClaim,
  startBlindHand,
  submitKey,
  submitShares,
  submitShuffle,
  type BlindDeadlines,
  type BlindFailure,
  type BlindHandSetup,
  type BlindHandState,
  type BlindMessage,
  type BlindResult,
  type BlindStep,
  type ShuffleCheck,
} from '@felt/blind';
import { blindDealPlan, initialDeck, type BlindDealPlan, type Hand, type HandPlan } from '@felt/engine';
import { DealingMode, type BlindFailureView, type BlindHandView, type DealingView } from '@felt/protocol';
import { createHash } from 'node:crypto';
import type { Emission } from './emissions.js';
import type { TableContext } from './table-context.js';

/** The shuffle proofs' shadow shuffles: a tampered deck passes one with probability 2^-40. */
export const BLIND_LAMBDA = 40;

/** An engine-blind hand announced and not yet dealt by the engine (its keys, shuffles, hole cards). */
export interface BlindPending {
  readonly handId: string;
  readonly handNo: number;
  /** The seats dealt in and the button the deck plan was made for. */
  readonly seats: readonly number[];
  readonly button: number;
}

/** A hand's protocol as the checkpoint keeps it: without the deck's card names (the game's). */
export type StoredBlindState = Omit<BlindHandState, 'setup'> & { readonly setup: Omit<BlindHandSetup, 'cards'> };

/** The engine-blind part of the checkpoint (LiveTableJSON `blind`): public values only. */
export interface BlindDealingJSON {
  /** The hand whose failure switched the table to standard dealing for the rest of its session. */
  readonly downgraded: { readonly handId: string; readonly failure: BlindFailure } | null;
  /** The protocol of the hand on the table (kept until the next hand begins, for late shows). */
  readonly state: StoredBlindState | null;
  /** Which deck position goes where in that hand. */
  readonly plan: BlindDealPlan | null;
  /** Announced and not dealt by the engine yet. */
  readonly pending: BlindPending | null;
}

export const NO_BLIND: BlindDealingJSON & { readonly state: null } = {
  downgraded: null,
  state: null,
  plan: null,
  pending: null,
};

/** What a participant's message did: the steps to relay, and whether the hand failed. */
export interface BlindApplied {
  readonly failed: BlindFailure | null;
}

/**
 * Engine-blind dealing at one table (docs/fairness.md, "Engine-blind dealing"): the hand's protocol
 * state (@felt/blind, public values only), the deck plan the engine deals by, and the downgrade. The
 * table runs the protocol: it takes each participant's message, relays every accepted step (a hole
 * card's shares only to its owner), asks for the positions the engine deals as the hand goes, and
 * hands the engine the cards that open (the board, shown hands). It never holds a secret: nothing here
 * can read a hole card its owner has not shown.
 */
export class BlindDealing {
  private json: Omit<BlindDealingJSON, 'state'> & { readonly state: BlindHandState | null };

  constructor(
    private readonly ctx: TableContext,
    json: BlindDealingJSON | undefined,
    private readonly deadlines: BlindDeadlines,
  ) {
    const stored = json ?? NO_BLIND;
    // The deck's card names are the engine's for the game: the checkpoint does not repeat them.
    const state = stored.state;
    this.json = {
      ...stored,
      state: state === null ? null : { ...state, setup: { ...state.setup, cards: initialDeck(ctx.engine.rules.deck) } },
    };
  }

  /**
   * The checkpoint's part: public values only, and not even the list of the deck's card names (the
   * engine's for the game), so that no card name is written but a card opened for everyone.
   */
  toJSON(): BlindDealingJSON {
    const state = this.json.state;
    if (state === null) return this.json;
    const { cards: _cards, ...setup } = state.setup;
    return { ...this.json, state: { ...state, setup } };
  }

  /** The room deals engine-blind and no failure has switched it to standard. */
  get enabled(): boolean {
    return this.ctx.config.dealing === DealingMode.ENGINE_BLIND && this.json.downgraded === null;
  }

  get pending(): BlindPending | null {
    return this.json.pending;
  }

  get state(): BlindHandState | null {
    return this.json.state;
  }

  get downgraded(): BlindDealingJSON['downgraded'] {
    return this.json.downgraded;
  }

  /** The participants of the hand on the table, if it is engine-blind. */
  seatsOf(handId: string): readonly number[] | null {
    const state = this.json.state;
    return state !== null && state.setup.handId === handId ? state.setup.seats : null;
  }

  /** A hand begins: the protocol of the last one is dropped. */
  clear(): void {
    this.json = { ...this.json, state: null, plan: null, pending: null };
  }

  /** Announces an engine-blind hand for the plan's seats: keys are owed from now. */
  start(handId: string, handNo: number, plan: HandPlan, now: number): void {
    const rules = this.ctx.engine.rules;
    const state = startBlindHand(
      {
        tableId: this.ctx.tableId,
        handId,
        seats: [...plan.dealtIn],
        cards: initialDeck(rules.deck),
        lambda: this.ctx.deps.blindLambda ?? BLIND_LAMBDA,
        deadlines: this.deadlines,
      },
      now,
    );
    this.json = {
      ...this.json,
      state,
      plan: blindDealPlan(rules, plan.dealtIn, plan.button),
      pending: { handId, handNo, seats: [...plan.dealtIn], button: plan.button },
    };
  }

  /** The engine dealt the pending hand: from now on the engine's hand is the hand. */
  dealt(): void {
    this.json = { ...this.json, pending: null };
  }

  /** The hand failed: the table deals standard hands from now on. */
  downgrade(handId: string, failure: BlindFailure): void {
    this.json = { downgraded: { handId, failure }, state: null, plan: null, pending: null };
  }

  /** What a shuffle's proof must be checked against, or a refusal (BlindRefusal) if it is not owed. */
  shuffleCheck(seat: number, message: Extract<BlindMessage, { kind: 'shuffle' }>): ShuffleCheck {
    const claim = shuffleClaim(this.requireState(), seat);
    return { kind: 'shuffle', ...claim, output: message.output, proof: message.proof };
  }

  /**
   * A participant's message: throws a BlindRefusal (nothing changed), or applies it and returns the
   * events that relay its step. `verified`: a shuffle's proof was checked off the event loop.
   */
  take(seat: number, message: BlindMessage, now: number, verified?: boolean): Emission[] {
    const state = this.requireState();
    let result: BlindResult;
    if (message.kind === 'key') result = submitKey(state, seat, message.proof, now);
    else if (message.kind === 'shuffle')
      result = submitShuffle(state, seat, message.output, message.proof, now, verified);
    else result = submitShares(state, seat, message.shares);
    this.json = { ...this.json, state: result.state };
    return result.step === undefined ? [] : this.relay(result.step);
  }

  /** Fails the hand if a step it owes is past its deadline. */
  expire(now: number): void {
    const state = this.json.state;
    if (state === null) return;
    this.json = { ...this.json, state: expire(state, now).state };
  }

  /** The hand's failure, if its protocol failed. */
  get failure(): BlindFailure | null {
    return this.json.state?.failure ?? null;
  }

  /** When the step owed now is due, if any. */
  get deadline(): number | null {
    const state = this.json.state;
    return state === null || state.phase === 'failed' ? null : state.deadline;
  }

  /** The table stood still for `ms` (frozen): every deadline moves with it. */
  shift(ms: number): void {
    const state = this.json.state;
    if (state === null || ms <= 0) return;
    const positions = Object.fromEntries(
      Object.entries(state.positions).map(([k, p]) => [k, { ...p, due: p.due + ms }]),
    );
    this.json = {
      ...this.json,
      state: { ...state, positions, deadline: state.deadline === null ? null : state.deadline + ms },
    };
  }

  // ------------------------------------------------------------------------------------------
  // Dealing: what the engine needs, as positions open

  /** The shuffles are done: the hole cards are asked for (once). */
  requestHoleCards(now: number): void {
    const { state, plan } = this.json;
    if (state === null || plan === null || state.phase !== 'play') return;
    const first = plan.hole[0]?.indices[0];
    if (first === undefined || state.positions[first] !== undefined) return;
    const requests = plan.hole.flatMap((h) => h.indices.map((position) => ({ position, to: h.seat })));
    this.json = { ...this.json, state: requestCards(state, requests, now).state };
  }

  /** Every hole card can be read by its owner: the engine may deal. */
  holeCardsDelivered(): boolean {
    const { state, plan } = this.json;
    if (state === null || plan === null || state.phase !== 'play') return false;
    return plan.hole.every((h) => h.indices.every((position) => delivered(state, position)));
  }

  /**
   * The engine waits for board cards at these positions: they are asked for (once), and returned
   * once every one of them is open.
   */
  boardCards(indices: readonly number[], now: number): string[] | null {
    let state = this.json.state;
    if (state === null || state.phase !== 'play') return null;
    const ask = indices.filter((position) => state!.positions[position] === undefined);
    if (ask.length > 0) {
      state = requestCards(
        state,
        ask.map((position) => ({ position, to: 'board' as const })),
        now,
      ).state;
      this.json = { ...this.json, state };
    }
    const cards = indices.map((position) => state.positions[position]?.card);
    return cards.every((c) => c !== undefined) ? cards : null;
  }

  /** A seat's hole cards, in deal order, once its owner has shown every one of them. */
  shownCards(seat: number): string[] | null {
    const { state, plan } = this.json;
    const hole = plan?.hole.find((h) => h.seat === seat);
    if (state === null || hole === undefined) return null;
    const cards = hole.indices.map((position) => state.positions[position]?.card);
    return cards.every((c) => c !== undefined) ? cards : null;
  }

  /** Hole positions of a seat (to show them, its owner sends its own shares of these). */
  holePositions(seat: number): readonly number[] {
    return this.json.plan?.hole.find((h) => h.seat === seat)?.indices ?? [];
  }

  // ------------------------------------------------------------------------------------------
  // What each viewer is told

  /**
   * A step becomes events: keys and shuffles to everyone; shares to each participant, only those it
   * may see (a hole card's only to its owner; shares of positions not dealt yet to nobody).
   */
  private relay(step: BlindStep): Emission[] {
    const state = this.requireState();
    const base = { table_id: this.ctx.tableId, hand_id: state.setup.handId, hand_seq: 0, seat: step.seat };
    if (step.kind === 'key') {
      return [{ audience: { kind: 'all' }, body: { type: 'blind_step', ...base, key: step.proof } }];
    }
    if (step.kind === 'shuffle') {
      return [
        {
          audience: { kind: 'all' },
          body: {
            type: 'blind_step',
            ...base,
            shuffle: {
              output: step.output.map((ct) => ({ c1: ct.c1, c2: ct.c2 })),
              proof: {
                openings: step.proof.openings.map((o) =>
                  'seed' in o ? { seed: o.seed } : { perm: [...o.perm], rand: [...o.rand] },
                ),
              },
            },
          },
        },
      ];
    }
    const out: Emission[] = [];
    for (const viewer of state.setup.seats) {
      const userId = this.ctx.engine.seat(viewer)?.playerId;
      if (userId === undefined) continue;
      const shares = step.shares.filter(({ position }) => {
        const p = state.positions[position];
        return p !== undefined && (p.to === 'board' || p.to === viewer || p.card !== undefined);
      });
      if (shares.length === 0) continue;
      out.push({
        audience: { kind: 'user', userId },
        body: {
          type: 'blind_step',
          ...base,
          shares: shares.map(({ position, share }) => ({ position, D: share.D, c: share.c, s: share.s })),
        },
      });
    }
    return out;
  }

  /** `table_state.dealing` for a viewer's seat (null: a spectator, or not dealt in). */
  view(hand: Hand | null, viewerSeat: number | null): DealingView {
    const { state, downgraded } = this.json;
    const blindHand = state !== null && (this.json.pending !== null || hand?.dealing === 'blind');
    const mode = blindHand || (downgraded === null && hand === null) ? DealingMode.ENGINE_BLIND : DealingMode.STANDARD;
    return {
      mode,
      downgraded: downgraded === null ? null : { hand_id: downgraded.handId, failure: failureView(downgraded.failure) },
      blind: blindHand ? wireView(state, viewerSeat) : null,
    };
  }

  private requireState(): BlindHandState {
    const state = this.json.state;
    if (state === null) throw new Error('no engine-blind hand is on');
    return state;
  }
}

export function failureView(f: BlindFailure): BlindFailureView {
  return { reason: f.reason, step: f.step, seats: [...f.seats] };
}

/** @felt/blind's view, in the wire's names (docs/protocol.md, `table_state.dealing.blind`). */
export function wireView(state: BlindHandState, viewerSeat: number | null): BlindHandView {
  const v = blindView(state, viewerSeat);
  return {
    hand_id: v.handId,
    seats: [...v.seats],
    lambda: v.lambda,
    phase: v.phase,
    keys: { ...v.keys },
    joint_key: v.jointKey,
    encrypted: v.deck.map((ct) => ({ c1: ct.c1, c2: ct.c2 })),
    shuffled: v.shuffled,
    shuffler: v.shuffler,
    deadline: v.deadline,
    positions: v.positions.map((p) => ({
      position: p.position,
      to: p.to,
      due: p.due,
      ...(p.card === undefined ? {} : { card: p.card }),
      shares: { ...p.shares },
    })),
    owed: v.owed === null ? null : { key: v.owed.key, shuffle: v.owed.shuffle, positions: [...v.owed.positions] },
    failure: v.failure === null ? null : failureView(v.failure),
  };
}

/**
 * A relayed shuffle as the event buffer and the checkpoint keep it: its digest in place of the
 * output and proof (up to 150 KB each), which went out once, live.
 */
export function bufferedBlindStep<T extends { type: string }>(message: T): T {
  if (message.type !== 'blind_step') return message;
  const m = message as T & { shuffle?: unknown };
  if (m.shuffle === undefined) return message;
  const { shuffle, ...rest } = m;
  return {
    ...rest,
    shuffle_digest: createHash('sha256').update(JSON.stringify(shuffle)).digest('hex'),
  } as unknown as T;
}
