// The gateway's half of the live lobby on real Redis: a fresh list from `lobby-feed:rooms`, the
// wallet from `lobby-feed:wallets`, deltas and wallet changes from their channels, the user named
// among the watchers, one fresh list a second per socket, and nothing before the list exists.
import { randomBytes } from 'node:crypto';
import { ChannelSubscriber, createLogger, createRedis, redisKeys, type Redis } from '@felt/platform';
import { ErrorCode, type ErrorMessage } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FRESH_LIST_MIN_MS, LobbyFeedFanout, type LobbySocket } from '../src/lobby-feed.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const silent = createLogger('gateway', { level: 'silent' });

let redis: Redis;
let subRedis: Redis;
const prefixes: string[] = [];

beforeAll(() => {
  redis = createRedis(REDIS_URL, { name: 'lobby-feed-test' });
  subRedis = createRedis(REDIS_URL, { name: 'lobby-feed-test-sub', maxRetriesPerRequest: null });
});

afterAll(async () => {
  for (const p of prefixes) {
    const keys = await redis.keys(`${p}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  redis?.disconnect();
  subRedis?.disconnect();
});

interface Sock extends LobbySocket {
  readonly got: unknown[];
  closed: boolean;
}

function rig() {
  const prefix = `felt-lf-${randomBytes(4).toString('hex')}:`;
  prefixes.push(prefix);
  const keys = redisKeys(prefix);
  const fanout = new LobbyFeedFanout<Sock>({
    redis,
    subscriber: new ChannelSubscriber(subRedis),
    keys,
    logger: silent,
    send: (conn, text) => conn.got.push(JSON.parse(text)),
    sendError: (conn, error: ErrorMessage) => conn.got.push(error),
  });
  const sock = (userId: string): Sock => ({ userId, closed: false, got: [] });
  return { keys, fanout, sock };
}

const list = (version: number) => JSON.stringify({ type: 'lobby_rooms', version, rooms: [] });
const delta = (version: number) =>
  JSON.stringify({ type: 'lobby_delta', version, prev_version: version - 1, upserts: [], removed: [] });

describe('the live lobby at a gateway (real Redis)', () => {
  it('sends the list and the wallet, then each delta and wallet change, and names the user a watcher', async () => {
    const { keys, fanout, sock } = rig();
    await redis.set(keys.lobbyFeedRooms, list(4));
    await redis.hset(keys.lobbyFeedWallets, 'u1', '950');
    const a = sock('u1');
    const b = sock('u2');
    await fanout.subscribe(a);
    await fanout.subscribe(b);
    expect(a.got).toEqual([
      { type: 'lobby_rooms', version: 4, rooms: [] },
      { type: 'wallet', balance: 950 },
    ]);
    expect(b.got).toEqual([{ type: 'lobby_rooms', version: 4, rooms: [] }]);
    expect(Number(await redis.zscore(keys.lobbyFeedWatchers, 'u1'))).toBeGreaterThan(Date.now());

    await redis.publish(keys.lobbyFeed, delta(5));
    await redis.publish(keys.wallet('u2'), JSON.stringify({ type: 'wallet', balance: 10 }));
    await vi.waitFor(() => expect(b.got).toHaveLength(3), { timeout: 5_000, interval: 10 });
    expect(b.got.slice(1)).toEqual([JSON.parse(delta(5)), { type: 'wallet', balance: 10 }]);
    await vi.waitFor(() => expect(a.got).toHaveLength(3), { timeout: 5_000, interval: 10 });

    // Stopped (or closed): nothing more, and the channels go when nobody here needs them.
    fanout.unsubscribe(a);
    fanout.unsubscribe(b);
    expect(fanout.size).toBe(0);
    await vi.waitFor(async () => expect(await redis.pubsub('NUMSUB', keys.lobbyFeed)).toEqual([keys.lobbyFeed, 0]));
    fanout.stop();
  });

  it('a fresh list at most once a second per socket: more often is refused as rate_limited', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { keys, fanout, sock } = rig();
      await redis.set(keys.lobbyFeedRooms, list(1));
      const a = sock('u1');
      await fanout.subscribe(a);
      await fanout.subscribe(a);
      expect(a.got.map((m) => (m as { type: string; code?: string }).code ?? (m as { type: string }).type)).toEqual([
        'lobby_rooms',
        ErrorCode.RATE_LIMITED,
      ]);
      vi.setSystemTime(Date.now() + FRESH_LIST_MIN_MS);
      await fanout.subscribe(a);
      expect((a.got.at(-1) as { type: string }).type).toBe('lobby_rooms');
      fanout.unsubscribe(a);
      fanout.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('before the feed published a list, a subscription is refused as unavailable and holds nothing', async () => {
    const { keys, fanout, sock } = rig();
    const a = sock('u1');
    await fanout.subscribe(a);
    expect(a.got).toEqual([expect.objectContaining({ type: 'error', code: ErrorCode.UNAVAILABLE })]);
    expect(fanout.size).toBe(0);
    await vi.waitFor(async () => expect(await redis.pubsub('NUMSUB', keys.lobbyFeed)).toEqual([keys.lobbyFeed, 0]));
    fanout.stop();
  });
});
