import type { ChannelSubscriber, Logger, Redis, RedisKeys } from '@felt/platform';
import { ErrorCode, LIVE_LOBBY, lobbyDeltaSchema, type ErrorMessage } from '@felt/protocol';

/** How long a gateway's word that a user watches the lobby lasts; renewed every third of it. */
export const WATCH_TTL_MS = 30_000;
/**
 * A socket gets a fresh list at most this often: the list is up to 200 rooms (tens of kB), so a socket
 * asking again and again would turn each small frame into a large answer.
 */
export const FRESH_LIST_MIN_MS = 1_000;
/** Deltas kept to hand on to sockets whose fresh list was being read when they arrived. */
const RECENT_DELTAS = 32;

/** A socket as the live lobby sees it. */
export interface LobbySocket {
  readonly userId: string;
  readonly closed: boolean;
}

export interface LobbyFeedFanoutOptions<C extends LobbySocket> {
  readonly redis: Redis;
  readonly subscriber: ChannelSubscriber;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  /** Delivers one server message (JSON text) to one socket. */
  readonly send: (conn: C, text: string) => void;
  readonly sendError: (conn: C, error: ErrorMessage) => void;
}

interface Held {
  count: number;
  ready: Promise<() => Promise<void>>;
}

/**
 * The live lobby at one gateway (docs/protocol.md, "Live lobby"): sockets that sent lobby_subscribe
 * get the lobby's list from Redis (`P {lobby-feed}:rooms`) and then every `lobby_delta` the lobby's feed
 * publishes on `P lobby-feed`, and their user's `wallet` messages (`P wallet:<userId>`). The channels
 * are held while a socket here needs them; the users watching are named in `P {lobby-feed}:watchers`
 * (renewed every WATCH_TTL_MS / 3), so that the feed reads only their wallets.
 */
export class LobbyFeedFanout<C extends LobbySocket> {
  /** Sockets receiving deltas (their fresh list was sent). */
  private readonly live = new Set<C>();
  /** Sockets whose fresh list is being read. */
  private readonly starting = new Set<C>();
  private readonly byUser = new Map<string, Set<C>>();
  private readonly channels = new Map<string, Held>();
  private readonly recent: { version: number; text: string }[] = [];
  private readonly freshAt = new WeakMap<C, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: LobbyFeedFanoutOptions<C>) {}

  /** lobby_subscribe: a fresh list now, then the changes. Again while subscribed: a fresh list again. */
  async subscribe(conn: C): Promise<void> {
    const now = Date.now();
    const last = this.freshAt.get(conn);
    if (last !== undefined && now - last < FRESH_LIST_MIN_MS) {
      this.o.sendError(conn, {
        type: 'error',
        code: ErrorCode.RATE_LIMITED,
        reason: LIVE_LOBBY,
        message: `one fresh lobby list a second at most; the changes keep coming meanwhile`,
      });
      return;
    }
    this.freshAt.set(conn, now);
    const known = this.live.has(conn) || this.starting.has(conn);
    this.live.delete(conn);
    this.starting.add(conn);
    if (!known) {
      let sockets = this.byUser.get(conn.userId);
      if (sockets === undefined) {
        sockets = new Set();
        this.byUser.set(conn.userId, sockets);
      }
      sockets.add(conn);
      this.ensureTimer();
      try {
        await Promise.all([
          this.hold(this.o.keys.lobbyFeed, (text) => this.onDelta(text)),
          this.hold(this.o.keys.wallet(conn.userId), (text) => this.onWallet(conn.userId, text)),
          this.o.redis.zadd(this.o.keys.lobbyFeedWatchers, Date.now() + WATCH_TTL_MS, conn.userId),
        ]);
      } catch (err) {
        this.unsubscribe(conn);
        this.o.logger.warn({ err, event: 'lobby_feed_subscribe_failed' }, 'live lobby subscription failed');
        this.refuse(conn);
        return;
      }
    }
    let list: string | null;
    let wallet: string | null | undefined;
    try {
      [list, wallet] = await Promise.all([
        this.o.redis.get(this.o.keys.lobbyFeedRooms),
        this.o.redis.hget(this.o.keys.lobbyFeedWallets, conn.userId),
      ]);
    } catch (err) {
      this.o.logger.warn({ err, event: 'lobby_feed_read_failed' }, 'live lobby list unreadable');
      list = null;
    }
    if (conn.closed || !this.starting.has(conn)) return;
    if (list === null) {
      // The feed has not published yet (a lobby starting, or Redis lost its data): the client polls.
      this.unsubscribe(conn);
      this.refuse(conn);
      return;
    }
    const version = versionOf(list);
    this.o.send(conn, list);
    this.starting.delete(conn);
    this.live.add(conn);
    // Changes published while the list was being read, newer than it.
    for (const d of this.recent) if (d.version > version) this.o.send(conn, d.text);
    if (wallet !== null && wallet !== undefined) this.o.send(conn, walletText(wallet));
  }

  /** lobby_unsubscribe, or the socket closed. */
  unsubscribe(conn: C): void {
    const was = this.live.delete(conn) || this.starting.delete(conn);
    const sockets = this.byUser.get(conn.userId);
    if (!sockets?.delete(conn)) return;
    if (sockets.size === 0) this.byUser.delete(conn.userId);
    if (!was) return;
    this.release(this.o.keys.lobbyFeed);
    this.release(this.o.keys.wallet(conn.userId));
    if (this.byUser.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Sockets with the live lobby on. */
  get size(): number {
    return this.live.size + this.starting.size;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private refuse(conn: C): void {
    this.o.sendError(conn, {
      type: 'error',
      code: ErrorCode.UNAVAILABLE,
      reason: LIVE_LOBBY,
      message: 'the live lobby is not available now; poll the lobby API and subscribe again later',
    });
  }

  private onDelta(text: string): void {
    let version: number;
    try {
      version = lobbyDeltaSchema.parse(JSON.parse(text)).version;
    } catch (err) {
      this.o.logger.warn({ err, channel: this.o.keys.lobbyFeed }, 'dropping invalid lobby delta');
      return;
    }
    this.recent.push({ version, text });
    if (this.recent.length > RECENT_DELTAS) this.recent.shift();
    for (const conn of this.live) this.o.send(conn, text);
  }

  private onWallet(userId: string, text: string): void {
    for (const conn of this.byUser.get(userId) ?? []) if (this.live.has(conn)) this.o.send(conn, text);
  }

  private hold(channel: string, handler: (text: string) => void): Promise<unknown> {
    const held = this.channels.get(channel);
    if (held) {
      held.count++;
      return held.ready;
    }
    const fresh: Held = { count: 1, ready: this.o.subscriber.subscribe(channel, handler) };
    this.channels.set(channel, fresh);
    fresh.ready.catch(() => {
      if (this.channels.get(channel) === fresh) this.channels.delete(channel);
    });
    return fresh.ready;
  }

  private release(channel: string): void {
    const held = this.channels.get(channel);
    if (!held) return;
    held.count--;
    if (held.count > 0) return;
    this.channels.delete(channel);
    void held.ready.then((off) => off()).catch(() => undefined);
  }

  /** Renews this gateway's word for every user watching here. */
  private ensureTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const users = [...this.byUser.keys()];
      if (users.length === 0) return;
      const until = Date.now() + WATCH_TTL_MS;
      const args = users.flatMap((u) => [until, u]);
      this.o.redis
        .zadd(this.o.keys.lobbyFeedWatchers, ...args)
        .catch((err: unknown) => this.o.logger.warn({ err }, 'lobby watchers not renewed'));
    }, WATCH_TTL_MS / 3);
    this.timer.unref();
  }
}

function versionOf(list: string): number {
  try {
    const v = (JSON.parse(list) as { version?: unknown }).version;
    return typeof v === 'number' ? v : 0;
  } catch {
    return 0;
  }
}

function walletText(balance: string): string {
  return JSON.stringify({ type: 'wallet', balance: Number(balance) });
}
