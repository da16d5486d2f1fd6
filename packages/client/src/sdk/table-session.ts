import {
  checkChatText,
  type ActionType,
  type Ack,
  type ChatMessage,
  type ErrorMessage,
  type ResyncResponse,
  type TableEvent,
  type TableHeartbeat,
  type TableMoved,
  type TableState,
  type TournamentView,
} from '@felt/protocol';
import { BlindSeat } from './blind-seat.js';
import { Emitter, type Unsubscribe } from './emitter.js';
import { CommandRefusedError, FeltSdkError, SdkErrorCode } from './errors.js';
import { assessHand, OwnSeedStatus, type HandFairness, type OwnSeed } from './hand-fairness.js';
import { newClientSeed } from './random.js';
import { currentTurn, initialTableView, reduceTable, type TableView, type TurnInfo } from './reducer.js';

export const ResyncReason = {
  /** After every reconnect: the socket was new, so anything may have been missed. */
  RECONNECT: 'reconnect',
  /** A snapshot's state_hash did not match its bytes. */
  HASH_MISMATCH: 'hash_mismatch',
  /** prev_table_seq, or a quiet table's table_heartbeat, proved a lost message. */
  LOSS: 'loss',
  /** An impossible state (private data in a spectator view). */
  ANOMALY: 'anomaly',
  /** The application asked. */
  MANUAL: 'manual',
  /** The table sent nothing, not even a heartbeat, for the client's silence limit. */
  SILENCE: 'silence',
} as const;
export type ResyncReason = (typeof ResyncReason)[keyof typeof ResyncReason];

export const SessionStatus = {
  /** join_table sent (or waiting for the connection); no snapshot yet. */
  JOINING: 'joining',
  JOINED: 'joined',
  /** Detached, refused or the table closed: nothing more happens. */
  CLOSED: 'closed',
} as const;
export type SessionStatus = (typeof SessionStatus)[keyof typeof SessionStatus];

/** A decision to send with `act`: the SDK adds hand_id, turn_token and command_id. */
export interface Decision {
  readonly action: ActionType;
  /** bet, raise, complete: the "to" amount (round total) within the turn's valid_actions. */
  readonly amount?: number;
  /** discard: the cards thrown away. */
  readonly cards?: readonly string[];
}

export interface HashMismatch {
  readonly tableSeq: number;
  readonly claimed: string;
  readonly computed: string;
}

/** Events of one table. Subscribe with `session.on(name, listener)`. */
export interface TableSessionEvents {
  /** The view after every applied message. */
  view: TableView;
  /** Every table-scoped message that passed validation, whether or not it was new. */
  message: TableState | TableEvent | ResyncResponse;
  /** Each live event newly applied (not replays). */
  event: TableEvent;
  /** It became the hero's turn (a new turn_token). */
  turn: TurnInfo;
  /**
   * A chat message from someone this session has not muted, once per chat_id: live ones as they
   * come, and those a resync replays that were missed.
   */
  chat: ChatMessage;
  /** A hand's seed_reveal was checked. */
  fairness: HandFairness;
  hash_mismatch: HashMismatch;
  resync: { readonly reason: ResyncReason; readonly fromTableSeq: number | undefined };
  /** An error for this table that answered no pending command of this client. */
  refused: ErrorMessage;
  status: SessionStatus;
  closed: { readonly reason: 'table_closed' | 'detached' | 'join_refused'; readonly error?: ErrorMessage };
  /** A tournament's director moved you to another table (join `to_table_id`; TournamentSeat does). */
  moved: TableMoved;
  /** A tournament table's view of the tournament changed (also in `state.tournament`). */
  tournament: TournamentView;
}

/** What a session needs from its client: sending, commands and settings. Internal seam. */
export interface SessionHost {
  readonly clientSeeds: boolean;
  isOpen(): boolean;
  sendFrame(frame: Record<string, unknown>): boolean;
  sendCommand(tableId: string, frame: Record<string, unknown>): Promise<Ack>;
  newCommandId(): string;
  randomBytes(length: number): Uint8Array;
  noteResync(reason: ResyncReason): void;
  noteAnomaly(): void;
  noteLoss(): void;
  noteFairness(result: HandFairness): void;
  noteClientSeed(): void;
  later(callback: () => void, ms: number): () => void;
  /** Wall-clock ms (the injected timers' clock). */
  now(): number;
  /**
   * A joined table that has sent nothing this long (not even a quiet table's heartbeat, 10 s apart)
   * is asked for a resync; 0 turns the watch off.
   */
  readonly silenceMs: number;
}

const RESYNC_TIMEOUT_MS = 10_000;
const MAX_FAIRNESS_KEPT = 64;
/** Chat messages a session keeps for `chatLog` (and remembers the ids of, to emit each once). */
export const CHAT_LOG_SIZE = 100;

/**
 * One table as this client sees it: a typed state store fed by the reducer (reducer.ts), typed
 * events, and the table's commands. Created by {@link FeltClient.join}.
 */
export class TableSession {
  readonly events = new Emitter<TableSessionEvents>();
  /**
   * The hero's seat in engine-blind hands (docs/fairness.md, "Engine-blind dealing"): it answers the
   * dealing steps by itself, and holds the hero's hole cards, which are never in `state`.
   */
  readonly blind: BlindSeat;
  private currentView: TableView;
  private sessionStatus: SessionStatus = SessionStatus.JOINING;
  private joinCommandId: string | undefined;
  private resyncAfterJoin: ResyncReason | undefined;
  /** The watermark when the connection dropped: the reconnect's resync replays from there. */
  private resyncFromAfterJoin: number | undefined;
  private resyncInFlight = false;
  private cancelResyncTimeout: (() => void) | undefined;
  /** When this table last sent anything (a message, a heartbeat, a reply to the join). */
  private lastHeardAt = 0;
  private cancelSilenceWatch: (() => void) | undefined;
  private lastTurnToken: string | undefined;
  private readonly ownSeeds = new Map<string, OwnSeed>();
  private readonly fairnessByHand = new Map<string, HandFairness>();
  /** The last CHAT_LOG_SIZE chat messages, muted senders' included, by chat_id. */
  private readonly chats = new Map<string, ChatMessage>();
  private readonly mutedUsers = new Set<string>();
  /** state_hash checks that failed for this table. */
  hashMismatches = 0;
  /** resync_request frames this session sent. */
  resyncs = 0;

  constructor(
    readonly tableId: string,
    private readonly host: SessionHost,
    /** Ask to watch as a spectator (members get their own view regardless). */
    readonly spectate: boolean,
  ) {
    this.currentView = initialTableView(tableId);
    this.blind = new BlindSeat(tableId, { send: (frame) => this.command(frame) });
  }

  /** The current view: snapshot, hand markers and watermark. Replaced (never mutated) on every change. */
  get view(): TableView {
    return this.currentView;
  }

  get state(): TableState | null {
    return this.currentView.state;
  }

  get status(): SessionStatus {
    return this.sessionStatus;
  }

  /** The hero's seat, or null for a spectator (or before the first snapshot). */
  get heroSeat(): number | null {
    return this.currentView.state?.hero?.seat ?? null;
  }

  /** The hero's pending turn, or null. */
  get turn(): TurnInfo | null {
    return currentTurn(this.currentView);
  }

  /** The fairness verdict of a hand this client saw revealed. */
  fairness(handId: string): HandFairness | undefined {
    return this.fairnessByHand.get(handId);
  }

  /** Verdicts of the most recent hands, oldest first. */
  fairnessHistory(): HandFairness[] {
    return [...this.fairnessByHand.values()];
  }

  on<K extends keyof TableSessionEvents>(event: K, listener: (payload: TableSessionEvents[K]) => void): Unsubscribe {
    return this.events.on(event, listener);
  }

  /**
   * Store protocol (e.g. React's useSyncExternalStore): `listener` runs after every change of
   * {@link getSnapshot}'s value, which is a new immutable object each time.
   */
  subscribe(listener: () => void): Unsubscribe {
    return this.events.on('view', () => listener());
  }

  getSnapshot(): TableView {
    return this.currentView;
  }

  /** Resolves with the first view for which `predicate` holds (now or later). */
  waitFor(predicate: (view: TableView) => boolean): Promise<TableView> {
    if (predicate(this.currentView)) return Promise.resolve(this.currentView);
    return this.events.next('view', predicate);
  }

  // ---- commands ------------------------------------------------------------------------------

  /**
   * Sends a decision for the hero's current turn with that turn's hand_id and turn_token. Resolves
   * with the ack; rejects with CommandRefusedError (e.g. `stale_turn_token`) or a timeout.
   */
  act(decision: Decision): Promise<Ack> {
    const turn = this.turn;
    if (turn === null) {
      return Promise.reject(new FeltSdkError(SdkErrorCode.NO_TURN, 'it is not your turn', { tableId: this.tableId }));
    }
    return this.command({
      type: 'action',
      hand_id: turn.handId,
      turn_token: turn.turnToken,
      action: decision.action,
      ...(decision.amount !== undefined ? { amount: decision.amount } : {}),
      ...(decision.cards !== undefined ? { cards: [...decision.cards] } : {}),
    });
  }

  sitIn(options: { post?: boolean } = {}): Promise<Ack> {
    return this.command({ type: 'sit_in', ...(options.post !== undefined ? { post: options.post } : {}) });
  }

  sitOut(): Promise<Ack> {
    return this.command({ type: 'sit_out' });
  }

  /**
   * Gives up the seat (docs/protocol.md, "Seats, disconnects and leaving"). The lobby's leave moves
   * the chips back to the wallet.
   */
  leave(): Promise<Ack> {
    return this.command({ type: 'leave' });
  }

  startHand(): Promise<Ack> {
    return this.command({ type: 'start_hand' });
  }

  /** Shows the hero's cards of a finished hand (default: the last hand). */
  showCards(handId = this.currentView.hand?.handId): Promise<Ack> {
    if (handId === undefined) {
      return Promise.reject(new FeltSdkError(SdkErrorCode.NO_TURN, 'no hand to show', { tableId: this.tableId }));
    }
    return this.command({ type: 'show_cards', hand_id: handId });
  }

  /**
   * Says `text` at the table (trimmed; docs/protocol.md, "Table chat"). Resolves with the ack; the
   * message itself comes back as a `chat` event like everyone else's. Rejects with
   * CommandRefusedError: `message_too_long` or `message_invalid` before anything is sent (its
   * commandId is then empty), or the table's `chat_disabled` or `chat_rate_limited`.
   */
  sendChat(text: string): Promise<Ack> {
    const checked = checkChatText(text);
    if (!checked.ok) {
      const refusal: ErrorMessage = {
        type: 'error',
        code: checked.code,
        message: checked.message,
        table_id: this.tableId,
      };
      return Promise.reject(new CommandRefusedError('', 'chat', refusal));
    }
    return this.command({ type: 'chat', text: checked.text });
  }

  /** Hides `userId`'s chat from this session from now on (`chat` events and `chatLog`); the client's choice only. */
  mute(userId: string): void {
    this.mutedUsers.add(userId);
  }

  unmute(userId: string): void {
    this.mutedUsers.delete(userId);
  }

  isMuted(userId: string): boolean {
    return this.mutedUsers.has(userId);
  }

  /** The users muted in this session. */
  get muted(): ReadonlySet<string> {
    return this.mutedUsers;
  }

  /**
   * The recent chat of this table (up to CHAT_LOG_SIZE messages seen by this session), oldest first
   * by table_seq, without the muted users' messages (unmuting shows them again).
   */
  chatLog(): ChatMessage[] {
    return [...this.chats.values()]
      .filter((m) => !this.mutedUsers.has(m.user_id))
      .sort((a, b) => a.table_seq - b.table_seq);
  }

  /** Any other table command; the SDK adds table_id and a command_id (kept across retries). */
  command(frame: Record<string, unknown> & { type: string }): Promise<Ack> {
    if (this.sessionStatus === SessionStatus.CLOSED) {
      return Promise.reject(new FeltSdkError(SdkErrorCode.SESSION_CLOSED, 'the table session is closed'));
    }
    return this.host.sendCommand(this.tableId, frame);
  }

  /**
   * Asks for a resync_response now (at most one is in flight). The replay starts after `fromTableSeq`,
   * by default the watermark.
   */
  resync(reason: ResyncReason = ResyncReason.MANUAL, fromTableSeq?: number): void {
    if (this.sessionStatus === SessionStatus.CLOSED || this.resyncInFlight) return;
    if (this.sessionStatus === SessionStatus.JOINING) {
      this.resyncAfterJoin ??= reason;
      return;
    }
    const watermark = fromTableSeq ?? this.currentView.lastTableSeq;
    const from = watermark >= 0 ? watermark : undefined;
    const sent = this.host.sendFrame({
      type: 'resync_request',
      table_id: this.tableId,
      ...(from !== undefined ? { from_table_seq: from } : {}),
    });
    if (!sent) return;
    this.resyncInFlight = true;
    this.resyncs++;
    this.host.noteResync(reason);
    this.cancelResyncTimeout?.();
    this.cancelResyncTimeout = this.host.later(() => {
      this.resyncInFlight = false;
    }, RESYNC_TIMEOUT_MS);
    this.events.emit('resync', { reason, fromTableSeq: from });
  }

  /** Stops receiving this table (leave_table); the seat keeps playing under the disconnect rules. */
  detach(): void {
    if (this.sessionStatus === SessionStatus.CLOSED) return;
    this.host.sendFrame({ type: 'leave_table', table_id: this.tableId });
    this.close('detached');
  }

  // ---- driven by FeltClient ----------------------------------------------------------------

  /** @internal (Re)attaches on an open socket; after a reconnect a resync follows the join. */
  attach(reconnect: boolean): void {
    if (this.sessionStatus === SessionStatus.CLOSED) return;
    this.setStatus(SessionStatus.JOINING);
    this.resyncInFlight = false;
    if (reconnect) {
      this.blind.reconnected();
      this.resyncAfterJoin = ResyncReason.RECONNECT;
      this.resyncFromAfterJoin = this.currentView.lastTableSeq;
    }
    this.joinCommandId = this.host.newCommandId();
    this.host.sendFrame({
      type: 'join_table',
      table_id: this.tableId,
      command_id: this.joinCommandId,
      ...(this.spectate ? { spectate: true } : {}),
    });
  }

  /** @internal The connection dropped: the join must be redone. */
  detached(): void {
    if (this.sessionStatus !== SessionStatus.CLOSED) this.setStatus(SessionStatus.JOINING);
    this.resyncInFlight = false;
  }

  /** @internal */
  isJoinCommand(commandId: string | undefined): boolean {
    return commandId !== undefined && commandId === this.joinCommandId;
  }

  /** @internal The join was refused with a code a retry cannot fix. */
  joinRefused(error: ErrorMessage): void {
    this.close('join_refused', error);
  }

  /**
   * @internal A quiet table's heartbeat names the last table_seq this client's stream carried: above
   * what was applied, the stream's last message was lost (nothing after it would have shown it).
   */
  heartbeat(message: TableHeartbeat): void {
    this.heard();
    if (this.sessionStatus !== SessionStatus.JOINED) return;
    const applied = this.currentView.lastTableSeq;
    if (message.table_seq <= applied) return;
    this.host.noteLoss();
    this.resync(ResyncReason.LOSS, applied);
  }

  /** @internal A validated table message. `hash` is set when a snapshot failed its state_hash. */
  handle(message: TableState | TableEvent | ResyncResponse, hash: HashMismatch | null): void {
    if (this.sessionStatus === SessionStatus.CLOSED) return;
    this.heard();
    this.events.emit('message', message);
    if (hash !== null) {
      this.hashMismatches++;
      this.events.emit('hash_mismatch', hash);
      // The snapshot's bytes are not what the server meant: do not install it; fetch a good one.
      if (message.type === 'resync_response') {
        this.resyncInFlight = false;
        this.host.later(() => this.resync(ResyncReason.HASH_MISMATCH), 250);
      } else {
        this.resync(ResyncReason.HASH_MISMATCH);
      }
      if (this.sessionStatus === SessionStatus.JOINING && message.type === 'table_state') {
        this.setStatus(SessionStatus.JOINED);
        this.afterJoin();
      }
      return;
    }
    const watermarkBefore = this.currentView.lastTableSeq;
    const result = reduceTable(this.currentView, message);
    if (message.type === 'chat_message') this.onChat(message);
    else if (message.type === 'resync_response') {
      for (const e of message.replayed_events) if (e.type === 'chat_message') this.onChat(e);
    }
    if (message.type === 'resync_response') {
      this.resyncInFlight = false;
      this.cancelResyncTimeout?.();
    }
    if (result.anomaly !== undefined) this.host.noteAnomaly();
    if (!result.applied) {
      if (this.sessionStatus === SessionStatus.JOINING && message.type === 'table_state') {
        // The join answer can equal what we hold (nothing happened while away).
        this.setStatus(SessionStatus.JOINED);
        this.afterJoin();
      }
      return;
    }
    this.currentView = result.view;
    const joinedNow = this.sessionStatus === SessionStatus.JOINING && result.view.state !== null;
    if (joinedNow) this.setStatus(SessionStatus.JOINED);
    this.blind.handle(message, result.lossDetected);
    if (message.type !== 'table_state' && message.type !== 'resync_response') {
      this.events.emit('event', message);
      if (message.type === 'seed_commit') this.onSeedCommit(message);
      else if (message.type === 'table_moved') this.events.emit('moved', message);
      else if (message.type === 'tournament_state') this.events.emit('tournament', message.tournament);
    }
    this.events.emit('view', this.currentView);
    this.checkTurn();
    this.checkReveal();
    if (joinedNow) this.afterJoin();
    if (result.lossDetected) {
      this.host.noteLoss();
      // Replay from before the message that exposed the gap, so the lost events come back as history.
      this.resync(ResyncReason.LOSS, watermarkBefore);
    } else if (result.anomaly !== undefined) {
      this.resync(ResyncReason.ANOMALY);
    }
    if (message.type === 'table_closed') this.close('table_closed');
  }

  /** @internal */
  noteCommandSettled(frame: Record<string, unknown>, outcome: 'acked' | 'refused'): void {
    if (frame.type !== 'client_seed' || typeof frame.hand_id !== 'string') return;
    const own = this.ownSeeds.get(frame.hand_id);
    if (own) {
      this.ownSeeds.set(frame.hand_id, {
        ...own,
        status: outcome === 'acked' ? OwnSeedStatus.ACCEPTED : OwnSeedStatus.REFUSED,
      });
    }
  }

  /** @internal */
  refused(error: ErrorMessage): void {
    this.events.emit('refused', error);
  }

  /** @internal */
  close(reason: TableSessionEvents['closed']['reason'], error?: ErrorMessage): void {
    if (this.sessionStatus === SessionStatus.CLOSED) return;
    this.cancelResyncTimeout?.();
    this.cancelSilenceWatch?.();
    this.cancelSilenceWatch = undefined;
    this.setStatus(SessionStatus.CLOSED);
    this.blind.close();
    this.events.emit('closed', { reason, ...(error !== undefined ? { error } : {}) });
  }

  private afterJoin(): void {
    this.blind.resume();
    const reason = this.resyncAfterJoin;
    const from = this.resyncFromAfterJoin;
    this.resyncAfterJoin = undefined;
    this.resyncFromAfterJoin = undefined;
    // After a reconnect the join snapshot already moved the watermark; replay from where the old socket stopped.
    if (reason !== undefined) this.resync(reason, from !== undefined && from >= 0 ? from : undefined);
  }

  /** The table spoke: the silence watch counts from now (armed once; it re-arms itself). */
  private heard(): void {
    this.lastHeardAt = this.host.now();
    if (this.host.silenceMs > 0 && this.cancelSilenceWatch === undefined) this.watchSilence(this.host.silenceMs);
  }

  /**
   * A table the cluster forgot this connection at (its owner rebuilt it without its attachments)
   * sends nothing at all, so nothing else would notice: after `silenceMs` of silence while joined,
   * resync. A live table answers it; a table that forgot this connection answers not_joined, and the
   * client joins again.
   */
  private watchSilence(inMs: number): void {
    this.cancelSilenceWatch = this.host.later(() => {
      this.cancelSilenceWatch = undefined;
      if (this.sessionStatus === SessionStatus.CLOSED) return;
      const quietFor = this.host.now() - this.lastHeardAt;
      if (quietFor < this.host.silenceMs) {
        this.watchSilence(this.host.silenceMs - quietFor);
        return;
      }
      if (this.sessionStatus === SessionStatus.JOINED) this.resync(ResyncReason.SILENCE);
      this.lastHeardAt = this.host.now();
      this.watchSilence(this.host.silenceMs);
    }, inMs);
  }

  private setStatus(status: SessionStatus): void {
    if (this.sessionStatus === status) return;
    this.sessionStatus = status;
    this.events.emit('status', status);
  }

  private checkTurn(): void {
    const turn = this.turn;
    if (turn === null) {
      this.lastTurnToken = undefined;
      return;
    }
    if (turn.turnToken === this.lastTurnToken) return;
    this.lastTurnToken = turn.turnToken;
    this.events.emit('turn', turn);
  }

  /**
   * Derivation step 4 (docs/fairness.md): a fresh seed from Web Crypto, drawn only now that the commit is known, sent
   * once per hand by a seat that is dealt in.
   */
  private onSeedCommit(message: Extract<TableEvent, { type: 'seed_commit' }>): void {
    if (!this.host.clientSeeds || this.currentView.role !== 'player') return;
    const seat = this.heroSeat;
    if (seat === null || !message.seats.includes(seat) || this.ownSeeds.has(message.hand_id)) return;
    const seed = newClientSeed((n) => this.host.randomBytes(n));
    this.ownSeeds.set(message.hand_id, { seat, seed, status: OwnSeedStatus.SENT });
    if (this.ownSeeds.size > MAX_FAIRNESS_KEPT) this.ownSeeds.delete(this.ownSeeds.keys().next().value!);
    this.host.noteClientSeed();
    // A refusal (window closed) is normal and leaves the hand server-seed-only; the verdict says so.
    this.command({ type: 'client_seed', hand_id: message.hand_id, seed }).catch(() => undefined);
  }

  /** Each chat message once (a live one and its replay share the chat_id), unless its sender is muted. */
  private onChat(message: ChatMessage): void {
    if (this.chats.has(message.chat_id)) return;
    this.chats.set(message.chat_id, message);
    if (this.chats.size > CHAT_LOG_SIZE) this.chats.delete(this.chats.keys().next().value!);
    if (!this.mutedUsers.has(message.user_id)) this.events.emit('chat', message);
  }

  private checkReveal(): void {
    const hand = this.currentView.hand;
    if (hand?.reveal == null || this.fairnessByHand.has(hand.handId)) return;
    const verdict = assessHand(
      hand,
      hand.reveal,
      this.ownSeeds.get(hand.handId) ?? null,
      this.heroCardsOf(hand.handId),
    );
    this.fairnessByHand.set(hand.handId, verdict);
    if (this.fairnessByHand.size > MAX_FAIRNESS_KEPT) {
      this.fairnessByHand.delete(this.fairnessByHand.keys().next().value!);
    }
    this.host.noteFairness(verdict);
    this.events.emit('fairness', verdict);
  }

  private heroCardsOf(handId: string): string[] {
    const state = this.currentView.state;
    return state?.hand_id === handId ? [...(state.hero?.cards ?? [])] : [];
  }
}
