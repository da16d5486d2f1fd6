import {
  ErrorCode,
  LIVE_LOBBY,
  serverMessageSchema,
  stateHash,
  type Ack,
  type ErrorMessage,
  type LobbyDelta,
  type LobbyRooms,
  type LobbyRoomSummary,
  type ServerMessage,
  type WaitlistMessage,
} from '@felt/protocol';
import { backoffDelay, resolveBackoff, type BackoffOptions } from './backoff.js';
import { Connection, ConnectionStatus, type ConnectionEvents } from './connection.js';
import { Emitter, type Unsubscribe } from './emitter.js';
import { LobbyFeedState } from './lobby-feed.js';
import { CommandRefusedError, FeltSdkError, SdkErrorCode } from './errors.js';
import type { HandFairness } from './hand-fairness.js';
import { newCommandId, webCryptoRandom, webCryptoRandomBytes, type RandomBytes } from './random.js';
import { browserWebSocketFactory, type WebSocketFactory } from './socket.js';
import { newClientStats, type ClientStats } from './stats.js';
import {
  SessionStatus,
  TableSession,
  type HashMismatch,
  type ResyncReason,
  type SessionHost,
} from './table-session.js';
import { systemTimers, type Timers } from './timers.js';

export interface FeltClientOptions {
  /** Gateway WebSocket URLs (the lobby's `GET /api/config`); reconnects rotate through them. */
  readonly gatewayUrls: string | readonly string[];
  /**
   * Opens sockets. Default: the browser's WebSocket (the browser sends the session cookie). In Node
   * pass `headerWebSocketFactory(WebSocket, { cookie })` with the `ws` package.
   */
  readonly socketFactory?: WebSocketFactory;
  /** Reconnect delays: exponential with full jitter, capped. */
  readonly backoff?: BackoffOptions;
  readonly stableAfterMs?: number;
  readonly connectTimeoutMs?: number;
  /** 0 turns the heartbeat off. */
  readonly pingIntervalMs?: number;
  /** Send a fresh client seed after each seed_commit of a hand the hero is dealt into. Default true. */
  readonly clientSeeds?: boolean;
  /** Validate every server message against @felt/protocol's schemas. Default true. */
  readonly validate?: boolean;
  /** Re-send a command with the same command_id when no ack or error came after this long. Default 4 000 ms. */
  readonly commandRetryMs?: number;
  /** Sends per command (first one included) before it fails with command_timeout. Default 3. */
  readonly commandAttempts?: number;
  /**
   * A joined table that sent nothing this long (a quiet table still sends a heartbeat every 10 s) is
   * asked for a resync, so a table that forgot this connection is noticed. Default 25 000 ms; 0 off.
   */
  readonly tableSilenceMs?: number;
  readonly timers?: Timers;
  /** Uniform [0, 1) for jitter; Web Crypto by default. */
  readonly random?: () => number;
  /** CSPRNG bytes for command ids and client seeds; Web Crypto by default. */
  readonly randomBytes?: RandomBytes;
}

/** Client-wide events. Table events are on each {@link TableSession}. */
export interface FeltClientEvents {
  connection: ConnectionStatus;
  open: ConnectionEvents['open'];
  close: ConnectionEvents['close'];
  /** Every frame as received and parsed, before validation: for recorders and auditors. */
  raw: unknown;
  /** A frame that failed @felt/protocol's schemas (dropped). */
  invalid: { readonly raw: unknown; readonly issues: string };
  /** An error that belongs to no table and no pending command. */
  error: ErrorMessage;
  fairness: HandFairness & { readonly tableId: string };
  /** The live lobby's list changed (after {@link FeltClient.subscribeLobby}): the rooms, oldest first. */
  lobby: readonly LobbyRoomSummary[];
  /** Your wallet's balance (after {@link FeltClient.subscribeLobby}): at the start, then on each change. */
  wallet: number;
  /**
   * Your place in a room's waitlist changed (after {@link FeltClient.subscribeLobby}): moved up, a seat
   * offered until `entry.offer_expires_at` (take it with LobbyClient `joinByCode`), seated, left,
   * lapsed or closed. LobbyClient `waitlists()` has the whole list.
   */
  waitlist: WaitlistMessage;
}

interface Pending {
  readonly commandId: string;
  readonly tableId: string;
  readonly frame: Record<string, unknown>;
  readonly resolve: (ack: Ack) => void;
  readonly reject: (err: Error) => void;
  attempts: number;
  cancelRetry: (() => void) | undefined;
  /** When it was first sent (timers.now()), for latency. */
  firstSentAt: number | undefined;
}

/** After a live lobby refused as rate_limited, and as unavailable (no list published yet). */
const LOBBY_RETRY_MS = 1_000;
const LOBBY_UNAVAILABLE_RETRY_MS = 5_000;

/** After an `unavailable` answer, a command is sent again this much later (at most the retry interval). */
const UNAVAILABLE_RETRY_MS = 500;

const RETRYABLE_JOIN_CODES: ReadonlySet<string> = new Set(['unavailable', 'rate_limited', 'internal']);

/**
 * The Felt SDK entry point: one reconnecting connection to the cluster, any number of tables.
 *
 * ```ts
 * const client = new FeltClient({ gatewayUrls: urls });   // Node: add socketFactory
 * client.connect();
 * const table = client.join(tableId);
 * table.on('turn', () => void table.act({ action: 'check' }));
 * ```
 */
export class FeltClient {
  readonly events = new Emitter<FeltClientEvents>();
  readonly stats: ClientStats = newClientStats();
  readonly connection: Connection;
  private readonly sessions = new Map<string, TableSession>();
  private readonly pending = new Map<string, Pending>();
  private readonly lobbyFeed = new LobbyFeedState();
  private lobbyWanted = false;
  private lobbyRetry: (() => void) | undefined;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly randomBytes: RandomBytes;
  private readonly validate: boolean;
  private readonly commandRetryMs: number;
  private readonly commandAttempts: number;
  private readonly joinBackoff: Required<BackoffOptions>;
  private readonly joinAttempts = new Map<string, number>();
  private readonly host: SessionHost;
  /** Latency of acked commands, ms from first send to ack, by frame type. Bounded; for tooling. */
  readonly ackLatencies: { type: string; ms: number }[] = [];

  constructor(options: FeltClientOptions) {
    this.timers = options.timers ?? systemTimers;
    this.random = options.random ?? webCryptoRandom;
    this.randomBytes = options.randomBytes ?? webCryptoRandomBytes;
    this.validate = options.validate ?? true;
    this.commandRetryMs = options.commandRetryMs ?? 4_000;
    this.commandAttempts = Math.max(1, options.commandAttempts ?? 3);
    this.joinBackoff = resolveBackoff(options.backoff);
    const urls = typeof options.gatewayUrls === 'string' ? [options.gatewayUrls] : [...options.gatewayUrls];
    this.connection = new Connection({
      urls,
      socketFactory: options.socketFactory ?? browserWebSocketFactory(),
      timers: this.timers,
      random: this.random,
      ...(options.backoff !== undefined ? { backoff: options.backoff } : {}),
      ...(options.stableAfterMs !== undefined ? { stableAfterMs: options.stableAfterMs } : {}),
      ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      ...(options.pingIntervalMs !== undefined ? { pingIntervalMs: options.pingIntervalMs } : {}),
    });
    const clientSeeds = options.clientSeeds ?? true;
    const stats = this.stats;
    this.host = {
      clientSeeds,
      isOpen: () => this.connection.state === ConnectionStatus.OPEN,
      sendFrame: (frame) => this.connection.send(frame),
      sendCommand: (tableId, frame) => this.sendCommand(tableId, frame),
      newCommandId: () => newCommandId(this.randomBytes),
      randomBytes: (n) => this.randomBytes(n),
      noteResync: (reason: ResyncReason) => {
        stats.resyncs++;
        stats.resyncsByReason[reason]++;
      },
      noteAnomaly: () => void stats.anomalies++,
      noteLoss: () => void stats.lossesDetected++,
      noteClientSeed: () => void stats.clientSeedsSent++,
      noteFairness: (verdict) => {
        if (verdict.ok) stats.handsVerified++;
        else stats.handsFailedVerification++;
      },
      later: (callback, ms) => {
        const handle = this.timers.setTimeout(callback, ms);
        return () => this.timers.clearTimeout(handle);
      },
      now: () => this.timers.now(),
      silenceMs: options.tableSilenceMs ?? 25_000,
    };
    this.connection.on('status', (s) => this.events.emit('connection', s));
    this.connection.on('open', (o) => this.onOpen(o));
    this.connection.on('close', (c) => this.onClose(c));
    this.connection.on('message', (m) => this.onMessage(m));
    this.connection.on('garbage', () => void stats.garbageFrames++);
  }

  /** Opens the connection (and keeps it open until `close()`). */
  connect(): this {
    this.connection.connect();
    return this;
  }

  /** Ends everything: sockets, sessions, pending commands. */
  close(): void {
    for (const s of this.sessions.values()) s.close('detached');
    this.sessions.clear();
    for (const p of [...this.pending.values()]) {
      this.settle(p.commandId, () => p.reject(new FeltSdkError(SdkErrorCode.SESSION_CLOSED, 'the client was closed')));
    }
    this.connection.close();
  }

  /**
   * Joins a table (joined again automatically after every reconnect, followed by a resync).
   * `spectate` asks for the spectator view of a table you are not seated at.
   */
  join(tableId: string, options: { spectate?: boolean } = {}): TableSession {
    const existing = this.sessions.get(tableId);
    if (existing && existing.status !== 'closed') return existing;
    const session = new TableSession(tableId, this.host, options.spectate ?? false);
    this.sessions.set(tableId, session);
    session.on('fairness', (verdict) => this.events.emit('fairness', { ...verdict, tableId }));
    session.on('closed', () => {
      if (this.sessions.get(tableId) === session) this.sessions.delete(tableId);
      for (const p of [...this.pending.values()]) {
        if (p.tableId !== tableId) continue;
        this.settle(p.commandId, () =>
          p.reject(new FeltSdkError(SdkErrorCode.SESSION_CLOSED, 'the table session closed', { tableId })),
        );
      }
    });
    if (this.connection.state === ConnectionStatus.OPEN) session.attach(false);
    return session;
  }

  session(tableId: string): TableSession | undefined {
    return this.sessions.get(tableId);
  }

  on<K extends keyof FeltClientEvents>(event: K, listener: (payload: FeltClientEvents[K]) => void): Unsubscribe {
    return this.events.on(event, listener);
  }

  // ---- commands -------------------------------------------------------------------------------

  private sendCommand(tableId: string, frame: Record<string, unknown>): Promise<Ack> {
    const commandId = newCommandId(this.randomBytes);
    return new Promise<Ack>((resolve, reject) => {
      const p: Pending = {
        commandId,
        tableId,
        frame: { ...frame, table_id: tableId, command_id: commandId },
        resolve,
        reject,
        attempts: 0,
        cancelRetry: undefined,
        firstSentAt: undefined,
      };
      this.pending.set(commandId, p);
      const session = this.sessions.get(tableId);
      if (session?.status === 'joined') this.transmit(p);
      // Otherwise it goes out once the session has (re)joined.
    });
  }

  /** Sends (or re-sends, with the same command_id) and arms the retry timer. */
  private transmit(p: Pending): void {
    if (!this.pending.has(p.commandId)) return;
    p.cancelRetry?.();
    p.cancelRetry = undefined;
    if (p.attempts >= this.commandAttempts) {
      this.stats.commandTimeouts++;
      this.settle(p.commandId, () =>
        p.reject(
          new FeltSdkError(SdkErrorCode.COMMAND_TIMEOUT, `no answer to ${String(p.frame.type)}`, {
            commandId: p.commandId,
            attempts: p.attempts,
          }),
        ),
      );
      return;
    }
    if (!this.connection.send(p.frame)) return;
    if (p.attempts === 0) {
      this.stats.commandsSent++;
      p.firstSentAt = this.timers.now();
    } else {
      this.stats.commandRetries++;
    }
    p.attempts++;
    const handle = this.timers.setTimeout(() => this.transmit(p), this.commandRetryMs);
    p.cancelRetry = () => this.timers.clearTimeout(handle);
  }

  private settle(commandId: string, then: () => void): void {
    const p = this.pending.get(commandId);
    if (!p) return;
    p.cancelRetry?.();
    this.pending.delete(commandId);
    then();
  }

  // ---- connection events ------------------------------------------------------------------------

  private onOpen(open: ConnectionEvents['open']): void {
    if (open.reconnect) this.stats.reconnects++;
    this.events.emit('open', open);
    if (this.lobbyWanted) this.connection.send({ type: 'lobby_subscribe' });
    for (const s of this.sessions.values()) s.attach(open.reconnect);
  }

  private onClose(close: ConnectionEvents['close']): void {
    for (const p of this.pending.values()) {
      p.cancelRetry?.();
      p.cancelRetry = undefined;
    }
    for (const s of this.sessions.values()) s.detached();
    if (close.fatal) {
      for (const s of [...this.sessions.values()]) s.close('detached');
    }
    this.lobbyFeed.lost();
    this.events.emit('close', close);
  }

  // ---- the live lobby ---------------------------------------------------------------------------

  /**
   * Starts the live lobby on this connection (and on every reconnection): `lobby` events with the
   * open listed rooms as they change, and `wallet` events with your balance, instead of polling the
   * lobby's HTTP API. Until the first `lobby` event, or while the socket is down, poll instead.
   */
  subscribeLobby(): void {
    this.lobbyWanted = true;
    this.connection.send({ type: 'lobby_subscribe' });
  }

  unsubscribeLobby(): void {
    this.lobbyWanted = false;
    this.lobbyRetry?.();
    this.lobbyRetry = undefined;
    this.lobbyFeed.lost();
    this.connection.send({ type: 'lobby_unsubscribe' });
  }

  /** The live lobby's rooms as last received, oldest first (empty before the first list). */
  lobbyRooms(): LobbyRoomSummary[] {
    return this.lobbyFeed.rooms();
  }

  /** Whether the live lobby's list is current: subscribed, and the list of this connection received. */
  get lobbyLive(): boolean {
    return this.lobbyWanted && this.lobbyFeed.version !== null;
  }

  /** The gateway refused a fresh list: ask again a moment later (no list yet: later still). */
  private retryLobby(error: ErrorMessage): void {
    if (!this.lobbyWanted || this.lobbyRetry !== undefined) return;
    const delay = error.code === ErrorCode.RATE_LIMITED ? LOBBY_RETRY_MS : LOBBY_UNAVAILABLE_RETRY_MS;
    const handle = this.timers.setTimeout(
      () => {
        this.lobbyRetry = undefined;
        if (this.lobbyWanted && this.lobbyFeed.version === null) this.connection.send({ type: 'lobby_subscribe' });
      },
      delay * (1 + this.random() / 2),
    );
    this.lobbyRetry = () => this.timers.clearTimeout(handle);
  }

  private onLobby(message: LobbyRooms | LobbyDelta): void {
    if (!this.lobbyWanted) return;
    const result = this.lobbyFeed.apply(message);
    if (result === 'applied') this.events.emit('lobby', this.lobbyFeed.rooms());
    else if (result === 'gap') {
      // A change was lost (pub/sub is at most once): a fresh list.
      this.lobbyFeed.lost();
      this.connection.send({ type: 'lobby_subscribe' });
    }
  }

  private onMessage(raw: unknown): void {
    this.stats.messages++;
    this.events.emit('raw', raw);
    let message: ServerMessage;
    if (this.validate) {
      const parsed = serverMessageSchema.safeParse(raw);
      if (!parsed.success) {
        this.stats.invalidMessages++;
        this.events.emit('invalid', {
          raw,
          issues: parsed.error.issues
            .slice(0, 3)
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .join('; '),
        });
        return;
      }
      message = parsed.data;
    } else {
      message = raw as ServerMessage;
    }
    switch (message.type) {
      case 'pong':
        return;
      case 'ack':
        this.onAck(message);
        return;
      case 'error':
        this.onError(message);
        return;
      case 'table_heartbeat':
        this.sessions.get(message.table_id)?.heartbeat(message);
        return;
      case 'lobby_rooms':
      case 'lobby_delta':
        this.onLobby(message);
        return;
      case 'wallet':
        if (this.lobbyWanted) this.events.emit('wallet', message.balance);
        return;
      case 'waitlist':
        if (this.lobbyWanted) this.events.emit('waitlist', message);
        return;
      default:
        break;
    }
    const session = this.sessions.get(message.table_id);
    if (!session) return;
    // state_hash covers the snapshot as received, so it is checked on the raw object, not the parsed copy.
    let mismatch: HashMismatch | null = null;
    if (message.type === 'table_state') mismatch = this.checkHash(raw as Record<string, unknown>);
    else if (message.type === 'resync_response') {
      mismatch = this.checkHash((raw as { snapshot: Record<string, unknown> }).snapshot);
    }
    if (message.type === 'table_state' || message.type === 'resync_response') this.joinAttempts.delete(session.tableId);
    session.handle(message, mismatch);
    if (session.status === 'joined') this.flushPending(session.tableId);
  }

  private checkHash(snapshot: Record<string, unknown>): HashMismatch | null {
    this.stats.hashChecks++;
    const claimed = String(snapshot.state_hash);
    let computed: string;
    try {
      computed = stateHash(snapshot);
    } catch {
      computed = 'unhashable';
    }
    if (computed === claimed) return null;
    this.stats.hashMismatches++;
    return { tableSeq: Number(snapshot.table_seq), claimed, computed };
  }

  private flushPending(tableId: string): void {
    for (const p of this.pending.values()) {
      if (p.tableId === tableId && p.cancelRetry === undefined) this.transmit(p);
    }
  }

  private onAck(ack: Ack): void {
    const p = this.pending.get(ack.command_id);
    if (!p) return;
    this.stats.acks++;
    if (p.firstSentAt !== undefined) {
      this.ackLatencies.push({ type: String(p.frame.type), ms: this.timers.now() - p.firstSentAt });
      if (this.ackLatencies.length > 10_000) this.ackLatencies.splice(0, this.ackLatencies.length - 10_000);
    }
    this.sessions.get(p.tableId)?.noteCommandSettled(p.frame, 'acked');
    this.settle(p.commandId, () => p.resolve(ack));
  }

  private onError(error: ErrorMessage): void {
    const commandId = error.command_id;
    if (commandId !== undefined) {
      const p = this.pending.get(commandId);
      if (p && error.code === ErrorCode.UNAVAILABLE && p.attempts < this.commandAttempts) {
        // The table could not take it just now (its worker or Redis failing over, a save not yet
        // confirmed): send it again soon with the same command_id, which the table applies once.
        p.cancelRetry?.();
        const handle = this.timers.setTimeout(
          () => this.transmit(p),
          Math.min(UNAVAILABLE_RETRY_MS, this.commandRetryMs),
        );
        p.cancelRetry = () => this.timers.clearTimeout(handle);
        return;
      }
      if (p) {
        this.stats.refusals++;
        this.sessions.get(p.tableId)?.noteCommandSettled(p.frame, 'refused');
        this.settle(commandId, () => p.reject(new CommandRefusedError(commandId, String(p.frame.type), error)));
        return;
      }
      for (const s of this.sessions.values()) {
        if (!s.isJoinCommand(commandId)) continue;
        if (RETRYABLE_JOIN_CODES.has(error.code)) this.retryJoin(s);
        else s.joinRefused(error);
        return;
      }
    }
    if (error.reason === LIVE_LOBBY) this.retryLobby(error);
    const session = error.table_id !== undefined ? this.sessions.get(error.table_id) : undefined;
    if (!session) {
      this.events.emit('error', error);
      return;
    }
    session.refused(error);
    // The cluster no longer counts this connection as at the table though the session does (a
    // re-attachment after a failover that the gateway gave up on): join again, as after a reconnect,
    // so the session catches up by a resync instead of staying silently detached.
    if (error.code === ErrorCode.NOT_JOINED && session.status === SessionStatus.JOINED) {
      this.stats.rejoins++;
      session.attach(true);
    }
  }

  private retryJoin(session: TableSession): void {
    const attempt = this.joinAttempts.get(session.tableId) ?? 0;
    this.joinAttempts.set(session.tableId, attempt + 1);
    const delay = backoffDelay(attempt, this.joinBackoff, this.random);
    this.timers.setTimeout(() => {
      if (this.sessions.get(session.tableId) === session && this.connection.state === ConnectionStatus.OPEN) {
        session.attach(false);
      }
    }, delay);
  }
}
