import { CodedError } from '@felt/engine';
import { backoffDelay, resolveBackoff, type BackoffOptions } from './backoff.js';
import { Emitter, type Unsubscribe } from './emitter.js';
import { webCryptoRandom } from './random.js';
import { frameText, ReadyState, type WebSocketFactory, type WebSocketLike } from './socket.js';
import { systemTimers, type TimerHandle, type Timers } from './timers.js';

export const ConnectionStatus = {
  /** Not started, or stopped by `close()`. */
  IDLE: 'idle',
  CONNECTING: 'connecting',
  OPEN: 'open',
  /** Dropped; a reconnect is scheduled. */
  WAITING: 'waiting',
  /** Ended for good: `close()` was called or the server ended the session. */
  CLOSED: 'closed',
} as const;
export type ConnectionStatus = (typeof ConnectionStatus)[keyof typeof ConnectionStatus];

/**
 * Close codes after which reconnecting cannot help: the session is over (4001) and the user must
 * log in again. Every other close (gateway shutdown 1001, slow consumer 4013, network loss 1006) is
 * retried, against the next gateway URL.
 */
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([4001]);

/**
 * Close codes that say "not so fast": too many sockets for this account or address (4029), or frames
 * sent on after rate limiting (4008). Reconnecting at once is refused the same way, so the retry
 * waits as after several failures (a ceiling of at least {@link SLOW_RETRY_MIN_ATTEMPT} doublings).
 */
export const SLOW_RETRY_CLOSE_CODES: ReadonlySet<number> = new Set([4008, 4029]);
export const SLOW_RETRY_MIN_ATTEMPT = 5;

export interface ConnectionOptions {
  /** Gateway URLs (`ws://…/ws`); reconnects rotate through them. The lobby's `/api/config` lists them. */
  readonly urls: readonly string[];
  /** Opens a socket; defaults to the browser's WebSocket. */
  readonly socketFactory: WebSocketFactory;
  readonly backoff?: BackoffOptions;
  /** A connection that lived this long resets the backoff. Default 5 000 ms. */
  readonly stableAfterMs?: number;
  /** A socket not open after this long is abandoned and retried. Default 10 000 ms. */
  readonly connectTimeoutMs?: number;
  /** Sends `ping` this often while open, so that a dead path is noticed. 0 turns it off. Default 15 000 ms. */
  readonly pingIntervalMs?: number;
  /** Nothing received for this long while open: the socket is presumed dead and replaced. Default 3 × ping. */
  readonly idleTimeoutMs?: number;
  readonly timers?: Timers;
  /** Uniform [0, 1) for jitter. Defaults to Web Crypto. */
  readonly random?: () => number;
}

export interface ConnectionEvents {
  status: ConnectionStatus;
  /** A socket opened. `reconnect` is false only for the first one since `connect()`. */
  open: { readonly url: string; readonly reconnect: boolean };
  /** One server frame, parsed as JSON. */
  message: unknown;
  /** A frame that was not JSON text. */
  garbage: { readonly data: string | undefined };
  /** A socket closed; `retryInMs` is set when a reconnect is scheduled. */
  close: { readonly code: number; readonly reason: string; readonly retryInMs?: number; readonly fatal: boolean };
}

export class ConnectionOptionsError extends CodedError<'invalid_connection_options'> {
  override readonly name = 'ConnectionOptionsError';
  constructor(message: string) {
    super('invalid_connection_options', message);
  }
}

/**
 * One logical connection to the cluster that survives socket loss: reconnects with exponential
 * backoff and full jitter, rotating gateway URLs, until `close()` or a fatal close code.
 */
export class Connection {
  readonly events = new Emitter<ConnectionEvents>();
  private status: ConnectionStatus = ConnectionStatus.IDLE;
  private socket: WebSocketLike | undefined;
  private attempt = 0;
  private urlIndex = 0;
  private opens = 0;
  private openedAt = 0;
  private lastReceived = 0;
  private retryTimer: TimerHandle = undefined;
  private connectTimer: TimerHandle = undefined;
  private pingTimer: TimerHandle = undefined;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly backoff: Required<BackoffOptions>;
  private readonly stableAfterMs: number;
  private readonly connectTimeoutMs: number;
  private readonly pingIntervalMs: number;
  private readonly idleTimeoutMs: number;
  /** Sockets opened so far, reconnects included. */
  socketsOpened = 0;

  constructor(private readonly options: ConnectionOptions) {
    if (options.urls.length === 0) throw new ConnectionOptionsError('at least one gateway URL is needed');
    this.timers = options.timers ?? systemTimers;
    this.random = options.random ?? webCryptoRandom;
    this.backoff = resolveBackoff(options.backoff);
    this.stableAfterMs = options.stableAfterMs ?? 5_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.pingIntervalMs = options.pingIntervalMs ?? 15_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 3 * this.pingIntervalMs;
  }

  get state(): ConnectionStatus {
    return this.status;
  }

  get url(): string {
    return this.options.urls[this.urlIndex % this.options.urls.length]!;
  }

  /** Starts connecting; a no-op while connecting, open or waiting. */
  connect(): void {
    if (this.status !== ConnectionStatus.IDLE && this.status !== ConnectionStatus.CLOSED) return;
    this.attempt = 0;
    this.opens = 0;
    this.open();
  }

  /** Sends one frame if the socket is open; returns whether it went out. */
  send(frame: object): boolean {
    const socket = this.socket;
    if (this.status !== ConnectionStatus.OPEN || !socket || socket.readyState !== ReadyState.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  /**
   * Drops the current socket as if the network had failed, and reconnects with backoff. Used after
   * a detected inconsistency that a fresh connection fixes, and by tests.
   */
  drop(reason = 'dropped by client'): void {
    const socket = this.socket;
    if (!socket) return;
    this.detach(socket);
    try {
      socket.close(4000, reason);
    } catch {
      // already closing
    }
    this.afterClose(1006, reason);
  }

  /** Ends the connection for good: no reconnect. */
  close(code = 1000, reason = 'client closed'): void {
    this.clearTimers();
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      this.detach(socket);
      try {
        socket.close(code, reason);
      } catch {
        // already closed
      }
    }
    if (this.status !== ConnectionStatus.CLOSED) {
      this.setStatus(ConnectionStatus.CLOSED);
      this.events.emit('close', { code, reason, fatal: true });
    }
  }

  on<K extends keyof ConnectionEvents>(event: K, listener: (payload: ConnectionEvents[K]) => void): Unsubscribe {
    return this.events.on(event, listener);
  }

  private setStatus(status: ConnectionStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.events.emit('status', status);
  }

  private open(): void {
    this.clearTimers();
    this.setStatus(ConnectionStatus.CONNECTING);
    const url = this.url;
    let socket: WebSocketLike;
    try {
      socket = this.options.socketFactory(url);
    } catch {
      this.afterClose(1006, 'socket could not be created');
      return;
    }
    this.socket = socket;
    this.connectTimer = this.timers.setTimeout(() => {
      if (this.socket !== socket || this.status !== ConnectionStatus.CONNECTING) return;
      this.detach(socket);
      try {
        socket.close();
      } catch {
        // never opened
      }
      this.afterClose(1006, 'connect timeout');
    }, this.connectTimeoutMs);

    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.timers.clearTimeout(this.connectTimer);
      this.connectTimer = undefined;
      this.openedAt = this.timers.now();
      this.lastReceived = this.openedAt;
      this.socketsOpened++;
      const reconnect = this.opens > 0;
      this.opens++;
      this.setStatus(ConnectionStatus.OPEN);
      this.schedulePing();
      this.events.emit('open', { url, reconnect });
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.lastReceived = this.timers.now();
      const text = frameText(event.data);
      let parsed: unknown;
      try {
        if (text === undefined) throw new Error('binary');
        parsed = JSON.parse(text);
      } catch {
        this.events.emit('garbage', { data: text });
        return;
      }
      this.events.emit('message', parsed);
    };
    socket.onerror = () => {
      // Always followed by a close event, which decides what happens next.
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.detach(socket);
      this.afterClose(event.code, event.reason);
    };
  }

  private detach(socket: WebSocketLike): void {
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    if (this.socket === socket) this.socket = undefined;
  }

  private afterClose(code: number, reason: string): void {
    this.clearTimers();
    this.socket = undefined;
    if (this.status === ConnectionStatus.CLOSED || this.status === ConnectionStatus.IDLE) return;
    if (FATAL_CLOSE_CODES.has(code)) {
      this.setStatus(ConnectionStatus.CLOSED);
      this.events.emit('close', { code, reason, fatal: true });
      return;
    }
    const wasOpen = this.status === ConnectionStatus.OPEN;
    if (wasOpen && this.timers.now() - this.openedAt >= this.stableAfterMs) this.attempt = 0;
    if (SLOW_RETRY_CLOSE_CODES.has(code)) this.attempt = Math.max(this.attempt, SLOW_RETRY_MIN_ATTEMPT);
    const delay = backoffDelay(this.attempt, this.backoff, this.random);
    this.attempt++;
    // Another gateway is as good as this one, and this one may be the one that died.
    this.urlIndex = (this.urlIndex + 1) % this.options.urls.length;
    this.setStatus(ConnectionStatus.WAITING);
    this.events.emit('close', { code, reason, retryInMs: delay, fatal: false });
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = undefined;
      if (this.status === ConnectionStatus.WAITING) this.open();
    }, delay);
  }

  private schedulePing(): void {
    if (this.pingIntervalMs <= 0) return;
    this.pingTimer = this.timers.setTimeout(() => {
      this.pingTimer = undefined;
      if (this.status !== ConnectionStatus.OPEN) return;
      if (this.timers.now() - this.lastReceived >= this.idleTimeoutMs) {
        this.drop('no traffic from the server');
        return;
      }
      this.send({ type: 'ping' });
      this.schedulePing();
    }, this.pingIntervalMs);
  }

  private clearTimers(): void {
    for (const t of [this.retryTimer, this.connectTimer, this.pingTimer])
      if (t !== undefined) this.timers.clearTimeout(t);
    this.retryTimer = undefined;
    this.connectTimer = undefined;
    this.pingTimer = undefined;
  }
}
