// The hero's side of engine-blind dealing at one table (docs/fairness.md, "Engine-blind dealing";
// docs/dev/engine-blind.md, step 7): a BlindParticipant per hand, driven by the table's snapshots and
// relayed steps. The hand's secret key and the decrypted hole cards stay here, outside the reduced
// TableState, so the snapshot the app holds is exactly what the server hashed.
import {
  BlindParticipant,
  type AuditFailure,
  type BlindMessage,
  type BlindStep,
  type BlindView,
  type Rng,
} from '@felt/blind';
import { getGameRules, initialDeck } from '@felt/engine';
import type {
  Ack,
  BlindHandView,
  BlindKeyFrame,
  BlindSharesFrame,
  BlindShuffleFrame,
  BlindStepMessage,
  ResyncResponse,
  TableEvent,
  TableState,
} from '@felt/protocol';
import { Emitter, type Unsubscribe } from './emitter.js';
import { CommandRefusedError, FeltSdkError, SdkErrorCode } from './errors.js';

export const BlindSeatStatus = {
  /** No engine-blind hand deals the hero in (standard dealing, a spectator, or no hand yet). */
  IDLE: 'idle',
  /** Taking part: key, shuffle on its turn, the shares the table says are owed. */
  ACTIVE: 'active',
  /** The hero's own check of the table failed (`failure` says how): the seat sends nothing more this hand. */
  AUDIT_FAILED: 'audit_failed',
  /**
   * The hand's key for the hero's seat was sent by another instance of the SDK (a reloaded page): this
   * one holds no secret for it, so it can neither answer nor read the cards. The hand voids at its deadline.
   */
  KEY_LOST: 'key_lost',
  /** This SDK does not know the table's game, so it cannot rebuild the deck the hand encrypts. */
  UNSUPPORTED: 'unsupported',
} as const;
export type BlindSeatStatus = (typeof BlindSeatStatus)[keyof typeof BlindSeatStatus];

/** What the hero's audit caught, in which hand. `seat` is whom to blame (null: the table itself). */
export interface BlindAuditFailure extends AuditFailure {
  readonly handId: string;
}

export type BlindFrame =
  Omit<BlindKeyFrame, 'command_id'> | Omit<BlindShuffleFrame, 'command_id'> | Omit<BlindSharesFrame, 'command_id'>;

export interface BlindSeatEvents {
  /** The hero's hole cards read so far in the current hand, in deal order, each time more become readable. */
  cards: { readonly handId: string; readonly cards: readonly string[] };
  /** The hero's check of the table failed (once per hand): tell the player the table cheated. */
  audit_failed: BlindAuditFailure;
  status: BlindSeatStatus;
  /** A frame went out: `positions` for shares (owed, shown or released). */
  sent: { readonly handId: string; readonly kind: BlindMessage['kind']; readonly positions: readonly number[] };
  /** A frame was refused or not answered (after the command layer's retries). */
  send_failed: { readonly handId: string; readonly kind: BlindMessage['kind']; readonly error: unknown };
}

/** What a BlindSeat needs from its table session. */
export interface BlindSeatHost {
  /** Sends a table command (the session adds a command_id and retries it); resolves with its ack. */
  send(frame: BlindFrame): Promise<Ack>;
}

export interface BlindSeatOptions {
  /** Bytes for the hand's keys and proofs; Web Crypto by default (tests pass seeded bytes). */
  readonly rng?: Rng;
}

/** The table's snapshot view of a hand, as @felt/blind reads it (the wire names it in snake_case). */
export function toBlindView(tableId: string, wire: BlindHandView): BlindView {
  return {
    tableId,
    handId: wire.hand_id,
    seats: wire.seats,
    lambda: wire.lambda,
    phase: wire.phase,
    keys: wire.keys,
    jointKey: wire.joint_key,
    deck: wire.encrypted,
    shuffled: wire.shuffled,
    shuffler: wire.shuffler,
    deadline: wire.deadline,
    positions: wire.positions.map((p) => ({
      position: p.position,
      to: p.to,
      due: p.due,
      ...(p.card === undefined ? {} : { card: p.card }),
      shares: p.shares,
    })),
    owed: wire.owed,
    failure: wire.failure,
  };
}

/** A relayed step as @felt/blind audits it; null for a resync's `shuffle_digest`, which cannot be checked. */
export function toBlindStep(message: BlindStepMessage): BlindStep | null {
  const { seat } = message;
  if (message.key !== undefined) return { kind: 'key', seat, proof: message.key };
  if (message.shuffle !== undefined) {
    return { kind: 'shuffle', seat, output: message.shuffle.output, proof: message.shuffle.proof };
  }
  if (message.shares !== undefined) {
    return {
      kind: 'shares',
      seat,
      shares: message.shares.map(({ position, D, c, s }) => ({ position, share: { D, c, s } })),
    };
  }
  return null;
}

/** The client frame for a participant's message, built field by field (the frames' schemas are strict). */
export function toBlindFrame(tableId: string, handId: string, message: BlindMessage): BlindFrame {
  const ids = { table_id: tableId, hand_id: handId };
  switch (message.kind) {
    case 'key': {
      const { Y, c, s } = message.proof;
      return { type: 'blind_key', ...ids, proof: { Y, c, s } };
    }
    case 'shuffle':
      return {
        type: 'blind_shuffle',
        ...ids,
        output: message.output.map(({ c1, c2 }) => ({ c1, c2 })),
        proof: {
          openings: message.proof.openings.map((o) =>
            'seed' in o ? { seed: o.seed } : { perm: [...o.perm], rand: [...o.rand] },
          ),
        },
      };
    case 'shares':
      return {
        type: 'blind_shares',
        ...ids,
        shares: message.shares.map(({ position, share }) => ({ position, D: share.D, c: share.c, s: share.s })),
      };
  }
}

/** Refusals worth sending again later: the table was away or busy, not unwilling. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(['unavailable', 'rate_limited', 'internal']);

function worthResending(error: unknown): boolean {
  if (error instanceof CommandRefusedError) return TRANSIENT_CODES.has(error.serverCode);
  return error instanceof FeltSdkError && error.code === SdkErrorCode.COMMAND_TIMEOUT;
}

/** A message's parts, as the table tracks them: `key`, `shuffle`, `share:<position>`. */
function itemsOf(message: BlindMessage): string[] {
  return message.kind === 'shares' ? message.shares.map((s) => `share:${s.position}`) : [message.kind];
}

/** One engine-blind hand the hero is dealt into. */
interface SeatHand {
  readonly handId: string;
  readonly seat: number;
  /** Null when this SDK cannot take part (key lost, unknown game). */
  readonly participant: BlindParticipant | null;
  readonly status: BlindSeatStatus;
  view: BlindView | null;
  /** table_seq of the snapshot `view` came from. */
  viewSeq: number;
  folded: boolean;
  released: boolean;
  /** table_seq of every relayed step taken, so a replayed step is not audited twice. */
  readonly steps: Set<number>;
  /** Shuffle steps relayed (checked or not): fewer than the view's `shuffled` means one was missed. */
  shuffles: number;
  /** Seats whose key step this seat checked (their shares can be checked). */
  readonly keysSeen: Set<number>;
  /** `${position}:${seat}` → D, of shares the audit verified in relayed steps. */
  readonly verified: Map<string, string>;
  /** Item → null while its command is in flight, or the table_seq its ack reported. */
  readonly items: Map<string, number | null>;
  /** Hole cards read, by deck position. */
  readonly cards: Map<number, string>;
  /** A failure this seat found beyond the participant's audit (a share substituted in a view, no card). */
  localFailure: AuditFailure | null;
  failureTold: boolean;
}

/**
 * The hero's seat in the engine-blind hands of one table. A TableSession owns one (`session.blind`)
 * and feeds it every table message it applies; the seat answers what the table says the hero owes
 * (through the session's commands), checks every relayed step, and reads the hero's hole cards, which
 * it keeps here and never puts in the TableState.
 *
 * ```ts
 * table.blind.on('cards', ({ cards }) => render(cards));
 * table.blind.on('audit_failed', (f) => warn(`the table cheated: ${f.detail}`));
 * table.on('turn', (t) => t.validActions.show ? void table.blind.show() : decide(t));
 * ```
 */
export class BlindSeat {
  private readonly events = new Emitter<BlindSeatEvents>();
  private hand: SeatHand | null = null;
  private resendWanted = false;
  private closed = false;
  private lastStatus: BlindSeatStatus = BlindSeatStatus.IDLE;

  constructor(
    readonly tableId: string,
    private readonly host: BlindSeatHost,
    private readonly options: BlindSeatOptions = {},
  ) {}

  on<K extends keyof BlindSeatEvents>(event: K, listener: (payload: BlindSeatEvents[K]) => void): Unsubscribe {
    return this.events.on(event, listener);
  }

  get status(): BlindSeatStatus {
    const hand = this.hand;
    if (hand === null) return BlindSeatStatus.IDLE;
    return this.failureOf(hand) !== null ? BlindSeatStatus.AUDIT_FAILED : hand.status;
  }

  /** The engine-blind hand the hero is dealt into (kept after it ends, until the next hand), or null. */
  get handId(): string | null {
    return this.hand?.handId ?? null;
  }

  /** The hero's hole cards of that hand read so far, in deal order (empty when none). */
  holeCards(): readonly string[] {
    const cards = this.hand?.cards;
    if (cards === undefined) return [];
    return [...cards.entries()].sort((a, b) => a[0] - b[0]).map(([, card]) => card);
  }

  /** What the hero's check of the table caught in this hand, if anything. */
  get failure(): BlindAuditFailure | null {
    const hand = this.hand;
    const failure = hand === null ? null : this.failureOf(hand);
    return hand === null || failure === null ? null : { ...failure, handId: hand.handId };
  }

  /** False once a relayed step was missed (a reconnect, a lost message): the rest is checked from snapshots. */
  get audited(): boolean {
    return this.hand?.participant?.audited ?? true;
  }

  /**
   * Shows the hero's hole cards: its own shares of them, with which everyone opens them. At the
   * blind showdown (`valid_actions.show`), or after the hand. Rejects with FeltSdkError
   * `blind_nothing_to_show` or `blind_audit_failed` before anything is sent, or as the command does.
   */
  show(): Promise<Ack> {
    const hand = this.hand;
    const view = hand?.view ?? null;
    if (hand?.participant == null || view === null) {
      return Promise.reject(this.error(SdkErrorCode.BLIND_NOTHING_TO_SHOW, 'no engine-blind hand of yours to show'));
    }
    if (this.failureOf(hand) !== null) {
      return Promise.reject(this.error(SdkErrorCode.BLIND_AUDIT_FAILED, 'your check of the table failed'));
    }
    const own = view.positions.filter((p) => p.to === hand.seat).map((p) => p.position);
    if (own.length === 0) {
      return Promise.reject(this.error(SdkErrorCode.BLIND_NOTHING_TO_SHOW, 'you hold no engine-blind card'));
    }
    return this.send(hand, hand.participant.show(view, own));
  }

  /**
   * Sends the hero's shares of every position not dealt yet, so the board can open without it (a
   * folded player may then leave). The seat does this by itself at the first snapshot that shows the
   * hero folded, and never before: resolves with null when the hero has not folded or nothing is left.
   */
  release(): Promise<Ack | null> {
    const hand = this.hand;
    const view = hand?.view ?? null;
    if (hand?.participant == null || !hand.folded || view?.phase !== 'play' || this.failureOf(hand) !== null) {
      return Promise.resolve(null);
    }
    hand.released = true;
    const message = hand.participant.release(view);
    return message === null ? Promise.resolve(null) : this.send(hand, message);
  }

  /** Sends again what the latest snapshot says is still owed and no command of this seat carries. */
  resend(): void {
    if (this.closed) return;
    this.resendWanted = true;
    if (this.hand !== null) this.drive(this.hand);
    this.noteStatus();
  }

  // ---- driven by TableSession ---------------------------------------------------------------

  /**
   * @internal One applied table message. `gap`: the reducer found a message lost before it, so a
   * relayed step may be missing and the audit continues from snapshots only.
   */
  handle(message: TableState | TableEvent | ResyncResponse, gap = false): void {
    if (this.closed) return;
    if (gap && this.hand !== null) this.missed(this.hand);
    if (message.type === 'table_state') {
      this.enter(message);
      this.apply(message);
    } else if (message.type === 'blind_step') {
      this.step(message);
    } else if (message.type === 'resync_response') {
      // The snapshot names the hand first (a lost snapshot may have started it), then its replayed
      // steps are audited in order, then the snapshot is answered.
      this.enter(message.snapshot);
      const replay = message.replayed_events
        .filter((e): e is BlindStepMessage => e.type === 'blind_step')
        .sort((a, b) => a.table_seq - b.table_seq);
      for (const step of replay) this.step(step);
      if (!message.complete && this.hand !== null) this.missed(this.hand);
      this.resendWanted = true;
      this.apply(message.snapshot);
    }
    this.noteStatus();
  }

  /** @internal The connection was re-established: what is owed goes out again at the next snapshot. */
  reconnected(): void {
    this.resendWanted = true;
  }

  /** @internal The session joined (again): a wanted resend runs now if no snapshot did it. */
  resume(): void {
    if (this.closed || !this.resendWanted || this.hand === null) return;
    this.drive(this.hand);
    this.noteStatus();
  }

  /** @internal The session closed: the seat stops (its hand's secret is dropped). */
  close(): void {
    this.closed = true;
    this.hand = null;
    this.noteStatus();
  }

  // ---- internals ------------------------------------------------------------------------------

  /** Leaves a hand the snapshot is no longer about, and starts the one it deals the hero into. */
  private enter(state: TableState): void {
    const seat = state.hero?.seat ?? null;
    const blind = state.dealing?.blind ?? null;
    const current = this.hand;
    if (current !== null && state.table_seq < current.viewSeq) return; // a resync reply overtaken
    if (
      current !== null &&
      ((state.hand_id !== undefined && state.hand_id !== current.handId) ||
        (blind !== null && blind.hand_id !== current.handId) ||
        (seat !== null && seat !== current.seat))
    ) {
      this.hand = null;
    }
    if (this.hand !== null || blind === null || seat === null || !blind.seats.includes(seat)) return;
    this.hand = this.newHand(state, blind, seat);
  }

  /** Takes the snapshot's view of the hero's hand, and answers it. */
  private apply(state: TableState): void {
    const hand = this.hand;
    const blind = state.dealing?.blind ?? null;
    if (hand === null || blind?.hand_id !== hand.handId || state.table_seq < hand.viewSeq) return;
    hand.view = toBlindView(state.table_id, blind);
    hand.viewSeq = state.table_seq;
    hand.folded = state.seats.some((s) => s.seat === hand.seat && s.folded === true);
    this.drive(hand);
  }

  private newHand(state: TableState, blind: BlindHandView, seat: number): SeatHand {
    let participant: BlindParticipant | null = null;
    let status: BlindSeatStatus = BlindSeatStatus.ACTIVE;
    if (blind.keys[String(seat)] !== undefined) {
      status = BlindSeatStatus.KEY_LOST;
    } else {
      let cards: readonly string[] | null = null;
      try {
        cards = initialDeck(getGameRules(state.variant.game).deck);
      } catch {
        status = BlindSeatStatus.UNSUPPORTED;
      }
      if (cards !== null) {
        const setup = {
          tableId: state.table_id,
          handId: blind.hand_id,
          seats: blind.seats,
          cards,
          lambda: blind.lambda,
        };
        participant = new BlindParticipant(
          setup,
          seat,
          this.options.rng === undefined ? {} : { rng: this.options.rng },
        );
      }
    }
    return {
      handId: blind.hand_id,
      seat,
      participant,
      status,
      view: null,
      viewSeq: -1,
      folded: false,
      released: false,
      steps: new Set(),
      shuffles: 0,
      keysSeen: new Set(),
      verified: new Map(),
      items: new Map(),
      cards: new Map(),
      localFailure: null,
      failureTold: false,
    };
  }

  private step(message: BlindStepMessage): void {
    const hand = this.hand;
    if (hand?.participant == null || hand.handId !== message.hand_id || hand.steps.has(message.table_seq)) return;
    hand.steps.add(message.table_seq);
    const step = toBlindStep(message);
    if (step === null || step.kind === 'shuffle') hand.shuffles += 1;
    if (step === null) {
      this.missed(hand);
      return;
    }
    const participant = hand.participant;
    this.guard(hand, () => participant.observe(step));
    if (step.kind === 'key') hand.keysSeen.add(step.seat);
    if (
      step.kind === 'shares' &&
      participant.audited &&
      this.failureOf(hand) === null &&
      hand.keysSeen.has(step.seat)
    ) {
      for (const { position, share } of step.shares) hand.verified.set(`${position}:${step.seat}`, share.D);
    }
    this.tellFailure(hand);
  }

  /**
   * A relayed step was (or may have been) missed: the participant's copy of the deck may be behind,
   * so it must stop auditing rather than blame an honest share. BlindParticipant has no call for
   * this; it takes a shuffle from a seat whose turn it is not as a missed step (`audited` turns off,
   * nothing is checked), so a shuffle from no seat of the hand says it.
   */
  private missed(hand: SeatHand): void {
    if (hand.participant === null || !hand.participant.audited) return;
    hand.participant.observe({ kind: 'shuffle', seat: -1, output: [], proof: { openings: [] } });
  }

  /** Answers the latest snapshot: owed steps, the hole cards, the release after a fold. */
  private drive(hand: SeatHand): void {
    const { participant, view } = hand;
    if (participant === null || view === null || this.closed) return;
    if (view.shuffled > hand.shuffles) this.missed(hand);
    if (this.resendWanted) {
      this.resendWanted = false;
      participant.resend();
    }
    this.guard(hand, () => {
      if (this.failureOf(hand) !== null) return;
      for (const message of participant.next(this.masked(hand, view))) void this.send(hand, message);
      this.readCards(hand, participant, view);
      if (hand.folded && !hand.released && view.phase === 'play' && this.failureOf(hand) === null) {
        hand.released = true;
        const message = participant.release(view);
        if (message !== null) void this.send(hand, message);
      }
    });
    this.tellFailure(hand);
  }

  /**
   * The view with what is owed less what a command of this seat carries: in flight (the command layer
   * sends it again), or acked at a table_seq this snapshot predates. After `resend`, only the rest goes
   * out again.
   */
  private masked(hand: SeatHand, view: BlindView): BlindView {
    const owed = view.owed;
    if (owed === null) return view;
    const carried = (item: string): boolean => {
      if (!hand.items.has(item)) return false;
      const ackedAt = hand.items.get(item);
      return ackedAt === null || ackedAt === undefined || ackedAt > hand.viewSeq;
    };
    return {
      ...view,
      owed: {
        key: owed.key && !carried('key'),
        shuffle: owed.shuffle && !carried('shuffle'),
        positions: owed.positions.filter((p) => !carried(`share:${p}`)),
      },
    };
  }

  private readCards(hand: SeatHand, participant: BlindParticipant, view: BlindView): void {
    const mine = view.positions.filter((p) => p.to === hand.seat);
    if (mine.every((p) => hand.cards.has(p.position))) return;
    // A share in the snapshot must be the one whose proof the audit checked when it was relayed.
    for (const p of mine) {
      for (const [seat, D] of Object.entries(p.shares)) {
        const checked = hand.verified.get(`${p.position}:${seat}`);
        if (checked !== undefined && checked !== D) {
          hand.localFailure = {
            step: 'shares',
            seat: Number(seat),
            detail: `the snapshot's share of position ${p.position} is not the one relayed`,
          };
          return;
        }
      }
    }
    let grew = false;
    for (const [position, card] of participant.holeCards(view)) {
      if (hand.cards.has(position)) continue;
      hand.cards.set(position, card);
      grew = true;
    }
    if (grew) this.events.emit('cards', { handId: hand.handId, cards: this.holeCards() });
  }

  private send(hand: SeatHand, message: BlindMessage): Promise<Ack> {
    const items = itemsOf(message);
    for (const item of items) hand.items.set(item, null);
    const positions = message.kind === 'shares' ? message.shares.map((s) => s.position) : [];
    let sent: Promise<Ack>;
    try {
      sent = this.host.send(toBlindFrame(this.tableId, hand.handId, message));
    } catch (error) {
      sent = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.events.emit('sent', { handId: hand.handId, kind: message.kind, positions });
    sent.then(
      (ack) => {
        for (const item of items) if (hand.items.get(item) === null) hand.items.set(item, ack.at_table_seq);
      },
      (error: unknown) => {
        for (const item of items) if (hand.items.get(item) === null) hand.items.delete(item);
        if (this.closed || this.hand !== hand) return;
        this.events.emit('send_failed', { handId: hand.handId, kind: message.kind, error });
        if (worthResending(error)) this.resend();
      },
    );
    return sent;
  }

  /** Runs `work`; an error from the crypto (a malformed point or share from the table) fails the hand's audit. */
  private guard(hand: SeatHand, work: () => void): void {
    try {
      work();
    } catch (error) {
      hand.localFailure ??= {
        step: 'deck',
        seat: null,
        detail: `the table's data could not be used: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }

  private failureOf(hand: SeatHand): AuditFailure | null {
    return hand.participant?.failure ?? hand.localFailure;
  }

  private tellFailure(hand: SeatHand): void {
    const failure = this.failureOf(hand);
    if (failure === null || hand.failureTold) return;
    hand.failureTold = true;
    this.events.emit('audit_failed', { ...failure, handId: hand.handId });
  }

  private noteStatus(): void {
    const status = this.status;
    if (status === this.lastStatus) return;
    this.lastStatus = status;
    this.events.emit('status', status);
  }

  private error(code: SdkErrorCode, message: string): FeltSdkError {
    return new FeltSdkError(code, message, { tableId: this.tableId, handId: this.hand?.handId ?? null });
  }
}
