import { randomUUID } from 'node:crypto';
import { accountKey, walletAccount, type PrismaClient } from '@felt/db';
import { redisKeys, type Logger, type Redis, type RedisKeys } from '@felt/platform';
import { LOBBY_FEED_MAX_ROOMS, lobbyRoomsSchema, type LobbyDelta, type LobbyRooms } from '@felt/protocol';
import type { Rooms } from './rooms.js';
import { summaryJson } from './routes/room-routes.js';

/** Writes the list and publishes its delta only while this replica still holds the feed's lock. */
const PUBLISH = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('PUBLISH', ARGV[4], ARGV[3])
return 1`;

/** Takes the lock, or keeps it when it is this replica's; returns whether this replica holds it. */
const CLAIM = `
local holder = redis.call('GET', KEYS[1])
if holder == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`;

/** Wallet balances are read for at most this many watching users per query. */
const WALLET_BATCH = 1_000;

export interface LobbyFeedOptions {
  readonly prisma: PrismaClient;
  readonly redis: Redis;
  readonly prefix: string;
  readonly rooms: Rooms;
  readonly logger: Logger;
  /** FELT_LOBBY_FEED_MS: how often the leader reads the list and the watched wallets. */
  readonly intervalMs: number;
}

/**
 * The live lobby's source (docs/protocol.md, "Live lobby"; docs/dev/contracts.md, `P lobby-feed`).
 * One lobby replica at a time (a Redis lock) reads the open listed rooms every `intervalMs`, as
 * GET /api/rooms lists them, and when they changed writes the whole list (`P {lobby-feed}:rooms`, a
 * `lobby_rooms` message) and publishes the change (`P lobby-feed`, a `lobby_delta`), both in one
 * script that checks the lock. It also reads the wallets of the users the gateways say are watching
 * (`P {lobby-feed}:watchers`) and publishes each balance that changed on `P wallet:<userId>`. So the
 * cluster reads the list once a tick, whatever the number of players watching, and any writer of
 * rooms or wallets (the lobby, the persister's cash-outs, a worker seating bots) is seen.
 */
export class LobbyFeed {
  private readonly keys: RedisKeys;
  private readonly token = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** While leading: the list as last published (room id -> its summary's JSON) and its version. */
  private last: { version: number; rooms: Map<string, string> } | null = null;
  /** While leading: the balances as last published, by user. */
  private readonly wallets = new Map<string, string>();

  constructor(private readonly o: LobbyFeedOptions) {
    this.keys = redisKeys(o.prefix);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.o.intervalMs);
    this.timer.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.o.redis
      .eval(
        `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`,
        1,
        this.keys.lobbyFeedLock,
        this.token,
      )
      .catch(() => undefined);
  }

  /** One round (a tick of the timer; tests call it directly). Never throws. */
  tick(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.round()
      .catch((err: unknown) => {
        this.last = null;
        this.o.logger.warn({ err, event: 'lobby_feed_failed' }, 'live lobby round failed');
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async round(): Promise<void> {
    const held = await this.o.redis.eval(CLAIM, 1, this.keys.lobbyFeedLock, this.token, String(this.o.intervalMs * 3));
    if (held !== 1) {
      this.last = null;
      this.wallets.clear();
      return;
    }
    await this.publishRooms();
    await this.publishWallets();
  }

  private async publishRooms(): Promise<void> {
    const list = (await this.o.rooms.list({}, LOBBY_FEED_MAX_ROOMS)).map(summaryJson);
    const now = new Map(list.map((r) => [r.session_id, JSON.stringify(r)]));
    // Just took the lead (or the last round failed): go on from the list as published.
    this.last ??= await this.stored();
    const before = this.last;
    const upserts = list.filter((r) => before.rooms.get(r.session_id) !== now.get(r.session_id));
    const removed = [...before.rooms.keys()].filter((id) => !now.has(id));
    if (upserts.length === 0 && removed.length === 0 && before.version > 0) return;
    const version = before.version + 1;
    const rooms: LobbyRooms = { type: 'lobby_rooms', version, rooms: list };
    const delta: LobbyDelta = { type: 'lobby_delta', version, prev_version: before.version, upserts, removed };
    const done = await this.o.redis.eval(
      PUBLISH,
      2,
      this.keys.lobbyFeedLock,
      this.keys.lobbyFeedRooms,
      this.token,
      JSON.stringify(rooms),
      JSON.stringify(delta),
      // A channel, not a key: it is no part of the script's slot (its keys share `{lobby-feed}`).
      this.keys.lobbyFeed,
    );
    if (done !== 1) {
      this.last = null;
      return;
    }
    this.last = { version, rooms: now };
  }

  /** The list as the last leader published it (nothing: an empty list at version 0). */
  private async stored(): Promise<{ version: number; rooms: Map<string, string> }> {
    const text = await this.o.redis.get(this.keys.lobbyFeedRooms);
    if (text === null) return { version: 0, rooms: new Map() };
    const parsed = lobbyRoomsSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return { version: 0, rooms: new Map() };
    return {
      version: parsed.data.version,
      rooms: new Map(parsed.data.rooms.map((r) => [r.session_id, JSON.stringify(r)])),
    };
  }

  private async publishWallets(): Promise<void> {
    const now = Date.now();
    await this.o.redis.zremrangebyscore(this.keys.lobbyFeedWatchers, '-inf', now);
    const watching = await this.o.redis.zrange(this.keys.lobbyFeedWatchers, 0, -1);
    const watched = new Set(watching);
    const gone = [...this.wallets.keys()].filter((u) => !watched.has(u));
    for (const u of gone) this.wallets.delete(u);
    const pipeline = this.o.redis.pipeline();
    if (gone.length > 0) pipeline.hdel(this.keys.lobbyFeedWallets, ...gone);
    let changed = 0;
    for (let i = 0; i < watching.length; i += WALLET_BATCH) {
      const users = watching.slice(i, i + WALLET_BATCH);
      const rows = await this.o.prisma.ledgerAccount.findMany({
        where: { key: { in: users.map((u) => accountKey(walletAccount(u))) } },
        select: { userId: true, balance: true },
      });
      const balances = new Map(rows.flatMap((r) => (r.userId ? [[r.userId, r.balance.toString()] as const] : [])));
      for (const u of users) {
        const balance = balances.get(u) ?? '0';
        if (this.wallets.get(u) === balance) continue;
        this.wallets.set(u, balance);
        pipeline.hset(this.keys.lobbyFeedWallets, u, balance);
        pipeline.publish(this.keys.wallet(u), JSON.stringify({ type: 'wallet', balance: Number(balance) }));
        changed++;
      }
    }
    if (gone.length > 0 || changed > 0) await pipeline.exec();
  }
}
