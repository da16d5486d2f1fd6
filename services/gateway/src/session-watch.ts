import type { ChannelSubscriber, Logger, Redis, RedisKeys } from '@felt/platform';

/** Session ids read per MGET in a sweep: one command (not one per session) of bounded size. */
export const SWEEP_CHUNK = 500;
/**
 * How long a revocation heard on the channel is remembered, for a socket whose upgrade read Redis
 * just before the logout and opens just after the message: it is closed as it opens.
 */
const RECENT_MS = 60_000;

/** One open socket, as the session watch sees it. */
export interface WatchedSocket {
  readonly sessionId: string;
  /** Session expiry, seconds since the epoch (the token's exp). */
  readonly expiresAt: number;
}

export interface SessionWatchOptions<S extends WatchedSocket> {
  readonly redis: Redis;
  readonly subscriber: ChannelSubscriber;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  /**
   * GATEWAY_SESSION_CHECK_MS: the period of the check that ends expired sessions and reads
   * `P {revocations}:seq`, re-reading every open session when a revocation message was missed.
   */
  readonly sweepMs: number;
  /** Ends one socket whose session was revoked or expired (close 4001). */
  readonly end: (socket: S, reason: 'session revoked' | 'session expired') => void;
}

/**
 * The open sockets of a gateway, by session, and the end of those whose session is revoked (logout)
 * or expires while they are open.
 *
 * - Push: when the lobby revokes a session it increments `P {revocations}:seq` and publishes
 *   `<n> <sid>` on `P sessions-revoked`; the sockets of that session are ended as the message arrives.
 * - Pub/sub is at most once: a message published while this gateway's subscriber connection was down
 *   is lost. Every `sweepMs` the gateway ends the sockets whose session expired (no Redis) and reads
 *   the count: when it is not the number of the last message heard (or a message skipped a number,
 *   or the subscriber has just reconnected), a message was missed, and a sweep re-reads
 *   `P {revocations}:revoked:<sid>` of every open session, {@link SWEEP_CHUNK} keys per MGET, one MGET at a time
 *   (a gateway with many sockets never holds thousands of commands and promises at once). So the
 *   periodic check costs Redis one GET while nothing is lost, however many sockets are open.
 */
export class SessionWatch<S extends WatchedSocket> {
  /** Open sockets by session id: one socket, or the sockets of a session with several. */
  private readonly bySession = new Map<string, S | S[]>();
  private count = 0;
  /** Revocations heard on the channel (session id → when), kept {@link RECENT_MS}. */
  private readonly recent = new Map<string, number>();
  private off: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private sweepAgain = false;
  private stopped = false;
  /** The number of the last revocation this gateway knows it has not missed; undefined: none yet. */
  private seq: number | undefined;
  /** A message may have been missed (a skipped number, a reconnect): re-read every session. */
  private suspect = true;

  constructor(private readonly o: SessionWatchOptions<S>) {}

  /** Subscribes to the revocation channel (resolves once Redis confirmed it) and starts the sweeps. */
  async start(): Promise<void> {
    this.off = await this.o.subscriber.subscribe(this.o.keys.sessionsRevoked, (sessionId) => this.revoked(sessionId));
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.off?.().catch(() => undefined);
    await this.sweeping;
  }

  /**
   * The subscriber connection is (again) ready: messages published while it was down were lost, so
   * every open session is read now.
   */
  subscriberReconnected(): void {
    if (this.stopped) return;
    this.suspect = true;
    void this.sweep();
  }

  get size(): number {
    return this.count;
  }

  /** Counts an open socket in; false (and nothing counted) if its session was revoked moments ago. */
  add(socket: S): boolean {
    if (this.recent.has(socket.sessionId)) return false;
    const current = this.bySession.get(socket.sessionId);
    if (current === undefined) this.bySession.set(socket.sessionId, socket);
    else if (Array.isArray(current)) current.push(socket);
    else this.bySession.set(socket.sessionId, [current, socket]);
    this.count++;
    return true;
  }

  /** Counts a socket out; false if it was not counted. */
  delete(socket: S): boolean {
    const current = this.bySession.get(socket.sessionId);
    if (current === undefined) return false;
    if (current === socket) {
      this.bySession.delete(socket.sessionId);
    } else if (Array.isArray(current)) {
      const i = current.indexOf(socket);
      if (i < 0) return false;
      current.splice(i, 1);
      if (current.length === 1) this.bySession.set(socket.sessionId, current[0]!);
    } else {
      return false;
    }
    this.count--;
    return true;
  }

  has(socket: S): boolean {
    const current = this.bySession.get(socket.sessionId);
    return current === socket || (Array.isArray(current) && current.includes(socket));
  }

  /** Every open socket, in the order their sessions first opened one. */
  *sockets(): IterableIterator<S> {
    for (const entry of this.bySession.values()) {
      if (Array.isArray(entry)) yield* [...entry];
      else yield entry;
    }
  }

  /** A revocation heard on the channel: `<n> <sessionId>`. */
  private revoked(message: string): void {
    const space = message.indexOf(' ');
    const n = Number(message.slice(0, space));
    const sessionId = message.slice(space + 1);
    if (this.stopped || space < 0 || !Number.isSafeInteger(n) || sessionId === '') return;
    if (this.seq === undefined || n !== this.seq + 1) this.suspect = true;
    this.seq = n;
    this.recent.set(sessionId, Date.now());
    this.endSession(sessionId, 'session revoked');
  }

  private endSession(sessionId: string, reason: 'session revoked' | 'session expired'): void {
    const entry = this.bySession.get(sessionId);
    if (entry === undefined) return;
    for (const s of Array.isArray(entry) ? [...entry] : [entry]) this.o.end(s, reason);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sweep().finally(() => this.schedule());
    }, this.o.sweepMs);
    this.timer.unref();
  }

  /** One check; a check asked for while one runs runs again after it (it may have missed a revocation). */
  private sweep(): Promise<void> {
    if (this.sweeping) {
      this.sweepAgain = true;
      return this.sweeping;
    }
    const run = async (): Promise<void> => {
      do {
        this.sweepAgain = false;
        try {
          await this.sweepOnce();
        } catch (err) {
          this.o.logger.warn({ err, event: 'session_sweep_failed' }, 'session check failed');
        }
      } while (this.sweepAgain && !this.stopped);
    };
    this.sweeping = run().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    const now = Date.now();
    for (const [sid, at] of this.recent) if (now - at > RECENT_MS) this.recent.delete(sid);
    this.endExpired(now / 1000);
    const raw = await this.o.redis.get(this.o.keys.revocationsSeq);
    const current = raw === null ? 0 : Number(raw);
    if (!this.suspect && current === this.seq) return;
    this.suspect = false;
    const heard = this.seq;
    try {
      await this.readAll();
    } catch (err) {
      // Not every session was read: the next check reads them all again.
      this.suspect = true;
      throw err;
    }
    // Every revocation up to `current` had its key before the reads began; later ones arrive as
    // messages, or the next check sees the count differ. (A count lower than the last message's:
    // Redis lost it, and the count starts again from there.)
    if (this.seq === heard) this.seq = current;
  }

  /** Ends the sockets whose session expired (forEach: no allocation per socket). */
  private endExpired(nowSec: number): void {
    const expired: string[] = [];
    this.bySession.forEach((entry, sid) => {
      const first = Array.isArray(entry) ? entry[0] : entry;
      if (first !== undefined && first.expiresAt <= nowSec) expired.push(sid);
    });
    for (const sid of expired) this.endSession(sid, 'session expired');
  }

  /** Reads `{revocations}:revoked:<sid>` of every open session, a chunk per MGET. */
  private async readAll(): Promise<void> {
    // A Map's key iterator visits the sessions added while the sweep waits for Redis and skips those
    // deleted meanwhile, so the sweep needs no copy of the session ids.
    const ids: string[] = [];
    for (const sid of this.bySession.keys()) {
      if (this.stopped) return;
      ids.push(sid);
      if (ids.length === SWEEP_CHUNK) await this.readChunk(ids.splice(0));
    }
    if (ids.length > 0) await this.readChunk(ids);
  }

  /** One MGET of the chunk's `revoked:` keys; ends the sockets of the sessions that have one. */
  private async readChunk(sessionIds: readonly string[]): Promise<void> {
    const values = await this.o.redis.mget(sessionIds.map((sid) => this.o.keys.revoked(sid)));
    for (let i = 0; i < sessionIds.length; i++) {
      if (values[i] !== null && values[i] !== undefined) this.endSession(sessionIds[i]!, 'session revoked');
    }
  }
}
