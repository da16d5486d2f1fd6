// The live lobby's source on real Postgres and Redis: one replica at a time (a Redis lock) publishes
// the open listed rooms' changes as versioned deltas beside the whole list, and the balances of the
// users the gateways name as watching; a replica that lost the lock publishes nothing.
import { createLogger, redisKeys } from '@felt/platform';
import { lobbyDeltaSchema, lobbyRoomsSchema, type LobbyDelta } from '@felt/protocol';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LobbyFeed } from '../src/lobby-feed.js';
import { startHarness, type Harness } from './harness.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROOM = { game: 'holdem', stakes: { smallBlind: 1, bigBlind: 2 }, seats: 6, buyIn: { min: 40, max: 400 } };

let h: Harness;
let sub: Redis;
const deltas: LobbyDelta[] = [];
const wallets: { channel: string; balance: number }[] = [];

function feed(): LobbyFeed {
  return new LobbyFeed({
    prisma: h.db.prisma,
    redis: h.redis,
    prefix: h.prefix,
    rooms: h.lobby.rooms,
    logger: createLogger('lobby', { level: 'silent' }),
    intervalMs: 60_000,
  });
}

beforeAll(async () => {
  h = await startHarness();
  sub = new Redis(REDIS_URL);
  const keys = redisKeys(h.prefix);
  sub.on('pmessage', (_pattern: string, channel: string, text: string) => {
    if (channel === keys.lobbyFeed) deltas.push(lobbyDeltaSchema.parse(JSON.parse(text)));
    else wallets.push({ channel, balance: (JSON.parse(text) as { balance: number }).balance });
  });
  await sub.psubscribe(`${h.prefix}lobby-feed`, `${h.prefix}wallet:*`);
});

afterAll(async () => {
  sub?.disconnect();
  await h?.close();
});

describe('LobbyFeed (real Postgres and Redis)', () => {
  it('publishes the list once, then only its changes, each delta following the last version', async () => {
    const keys = redisKeys(h.prefix);
    const leader = feed();
    const other = feed();
    await leader.tick();
    const first = lobbyRoomsSchema.parse(JSON.parse((await h.redis.get(keys.lobbyFeedRooms))!));
    expect(first.version).toBe(1);
    await vi.waitFor(() => expect(deltas).toHaveLength(1));

    // Nothing changed: nothing published. The other replica does not hold the lock: nothing either.
    await leader.tick();
    await other.tick();

    const host = await h.user();
    const created = await host.post<{ session_id: string; code: string }>('/api/rooms', { config: ROOM });
    expect(created.status).toBe(201);
    const id = created.body.session_id;
    await other.tick();
    await leader.tick();
    await vi.waitFor(() => expect(deltas).toHaveLength(2));
    expect(deltas[1]).toMatchObject({ version: 2, prev_version: 1, removed: [] });
    expect(deltas[1]!.upserts.map((r) => [r.session_id, r.players])).toEqual([[id, 0]]);

    const guest = await h.user();
    expect((await guest.post('/api/rooms/join', { code: created.body.code, buy_in: 100 })).status).toBe(200);
    await leader.tick();
    await vi.waitFor(() => expect(deltas).toHaveLength(3));
    expect(deltas[2]!.upserts.map((r) => [r.session_id, r.players])).toEqual([[id, 1]]);

    expect((await host.req('DELETE', `/api/rooms/${id}`)).status).toBe(200);
    await leader.tick();
    await vi.waitFor(() => expect(deltas).toHaveLength(4));
    expect(deltas[3]).toMatchObject({ version: 4, prev_version: 3, upserts: [], removed: [id] });
    const stored = lobbyRoomsSchema.parse(JSON.parse((await h.redis.get(keys.lobbyFeedRooms))!));
    expect(stored.version).toBe(4);
    expect(stored.rooms.some((r) => r.session_id === id)).toBe(false);

    // The leader stops: the other takes over from the stored list, its version going on.
    await leader.stop();
    const late = await host.post<{ session_id: string }>('/api/rooms', { config: ROOM });
    await other.tick();
    await vi.waitFor(() => expect(deltas).toHaveLength(5));
    expect(deltas[4]).toMatchObject({ version: 5, prev_version: 4 });
    expect(deltas[4]!.upserts.map((r) => r.session_id)).toEqual([late.body.session_id]);
    await other.stop();
  });

  it('publishes the wallets of watching users when they change, and forgets users no longer watching', async () => {
    const keys = redisKeys(h.prefix);
    const leader = feed();
    const watcher = await h.user();
    const idle = await h.user();
    await h.redis.zadd(keys.lobbyFeedWatchers, Date.now() + 60_000, watcher.id);
    await leader.tick();
    await vi.waitFor(() => expect(wallets.filter((w) => w.channel === keys.wallet(watcher.id))).toHaveLength(1));
    const start = wallets.find((w) => w.channel === keys.wallet(watcher.id))!.balance;
    expect(await h.redis.hget(keys.lobbyFeedWallets, watcher.id)).toBe(String(start));

    // A buy-in moves the wallet: published once; an unchanged wallet is not published again.
    const created = await watcher.post<{ session_id: string }>('/api/rooms', { config: ROOM, sit: { buy_in: 100 } });
    expect(created.status).toBe(201);
    await leader.tick();
    await leader.tick();
    await vi.waitFor(() => expect(wallets.filter((w) => w.channel === keys.wallet(watcher.id))).toHaveLength(2));
    expect(wallets.filter((w) => w.channel === keys.wallet(watcher.id)).map((w) => w.balance)).toEqual([
      start,
      start - 100,
    ]);
    expect(wallets.some((w) => w.channel === keys.wallet(idle.id))).toBe(false);

    // The gateway's word lapsed: no longer read, and its balance dropped from the hash.
    await h.redis.zadd(keys.lobbyFeedWatchers, Date.now() - 1, watcher.id);
    await leader.tick();
    expect(await h.redis.zscore(keys.lobbyFeedWatchers, watcher.id)).toBeNull();
    expect(await h.redis.hget(keys.lobbyFeedWallets, watcher.id)).toBeNull();
    await leader.stop();
  });
});
