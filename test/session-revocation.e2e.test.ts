// Logout reaches the sockets a session already has open (close 4001), at every gateway: at once
// through the revocation channel (`P sessions-revoked`, published by the lobby with the key and the
// count `P revocations:seq`), and, for a message a gateway missed, through the sweep that re-reads
// every open session's `P revoked:<sid>` (500 sessions per MGET) when the periodic check
// (GATEWAY_SESSION_CHECK_MS) finds the count ahead of the last message, or when the gateway's
// subscriber connection is back.
import { randomUUID } from 'node:crypto';
import { redisKeys } from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, TEST_ORIGIN, type GatewayHandle } from './harness/cluster.js';
import { LobbyClient } from './harness/lobby-client.js';
import { sessionCookie } from './harness/session.js';
import { pause } from './harness/wait.js';
import { TestSocket } from './harness/ws-client.js';

/** More open sessions than one MGET of the sweep reads (session-watch.ts SWEEP_CHUNK). */
const SESSIONS = 520;

let cluster: Cluster;
let lobby: LobbyClient;
/** Sweeps every 300 ms (the harness's setting). */
let sweeping: GatewayHandle;
/** Sweeps every 10 minutes: within a test, only the channel or a reconnect can end its sockets. */
let pushOnly: GatewayHandle;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  cluster = await Cluster.start({
    gateways: 1,
    workers: 1,
    lobby: true,
    persister: false,
    env: { GATEWAY_MAX_SOCKETS_PER_ADDRESS: String(SESSIONS + 50), GATEWAY_MAX_SOCKETS_PER_USER: '10' },
  });
  lobby = new LobbyClient(cluster.lobby!.url);
  sweeping = cluster.gateways[0]!;
  pushOnly = await cluster.addGateway({ GATEWAY_SESSION_CHECK_MS: '600000' });
});

afterAll(async () => {
  for (const s of sockets) s.close();
  await cluster?.stop();
});

async function open(url: string, cookie: string): Promise<TestSocket> {
  const s = await TestSocket.connect(url, { cookie, origin: TEST_ORIGIN });
  sockets.push(s);
  return s;
}

/** A session the lobby does not know, signed with the cluster's secret; its id is ours. */
async function session(): Promise<{ sessionId: string; cookie: string }> {
  const sessionId = randomUUID();
  return { sessionId, cookie: await sessionCookie(cluster.secret, { userId: randomUUID(), name: 'rv', sessionId }) };
}

/** Revokes a session in Redis the way the lobby does, but publishes nothing: a message every gateway missed. */
async function revokeSilently(sessionId: string): Promise<void> {
  await cluster.redis
    .multi()
    .set(redisKeys(cluster.prefix).revoked(sessionId), '1', 'PX', 600_000)
    .incr(redisKeys(cluster.prefix).revocationsSeq)
    .exec();
}

/** Resolves with the close, or with 'open' if the socket is still open after `ms`. */
async function closedWithin(s: TestSocket, ms: number): Promise<number | 'open'> {
  const timer = pause(ms, 'a socket still open this long was not ended').then(() => 'open' as const);
  const closed = await Promise.race([s.closed, timer]);
  return closed === 'open' ? 'open' : closed.code;
}

describe('session revocation at the gateways', () => {
  it('logout ends a live socket at once through the channel, at a gateway that would not sweep for 10 minutes', async () => {
    const user = await lobby.signUp(`rv-${randomUUID().slice(0, 8)}`);
    const atPushOnly = await open(pushOnly.wsUrl, user.cookie);
    const atSweeping = await open(sweeping.wsUrl, user.cookie);
    const started = performance.now();
    await lobby.logout(user);
    expect(await closedWithin(atPushOnly, 2_000)).toBe(4001);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect((await atPushOnly.closed).reason).toBe('session revoked');
    expect(await closedWithin(atSweeping, 2_000)).toBe(4001);
    expect(await TestSocket.refusal(pushOnly.wsUrl, { cookie: user.cookie, origin: TEST_ORIGIN })).toBe(401);
  });

  it('the sweep, a chunk at a time, ends a revoked session whose message was missed, and only that one', async () => {
    const sessions = [];
    for (let i = 0; i < SESSIONS; i++) sessions.push(await session());
    const opened: TestSocket[] = [];
    for (let i = 0; i < SESSIONS; i += 50) {
      opened.push(...(await Promise.all(sessions.slice(i, i + 50).map((s) => open(sweeping.wsUrl, s.cookie)))));
    }
    // The last session opened is read by the sweep's second MGET; the first by its first.
    await revokeSilently(sessions.at(-1)!.sessionId);
    await revokeSilently(sessions[0]!.sessionId);
    expect(await closedWithin(opened.at(-1)!, 5_000)).toBe(4001);
    expect(await closedWithin(opened[0]!, 5_000)).toBe(4001);
    // Two more sweeps (300 ms each) end nothing else.
    expect(await closedWithin(opened[1]!, 1_000)).toBe('open');
    const stillOpen = await Promise.all(opened.slice(1, -1).map((s) => closedWithin(s, 0)));
    expect(stillOpen.every((c) => c === 'open')).toBe(true);
    for (const s of opened) s.close();
  });

  it('when its subscriber connection comes back, a gateway re-reads every open session', async () => {
    const s = await session();
    const socket = await open(pushOnly.wsUrl, s.cookie);
    await revokeSilently(s.sessionId);
    expect(await closedWithin(socket, 1_000)).toBe('open');
    // Cut the gateway's subscriber connection (ioredis reconnects it): what was published meanwhile is lost.
    const clients = (await cluster.redis.client('LIST')) as string;
    const sub = clients.split('\n').find((line) => line.includes(` name=gateway:${pushOnly.id}:sub `));
    expect(sub).toBeDefined();
    const id = /(?:^|\s)id=(\d+)/.exec(sub!)![1]!;
    await cluster.redis.client('KILL', 'ID', id);
    expect(await closedWithin(socket, 5_000)).toBe(4001);
    // The gateway subscribed again: logout still reaches it at once.
    const user = await lobby.signUp(`rv-${randomUUID().slice(0, 8)}`);
    const live = await open(pushOnly.wsUrl, user.cookie);
    await lobby.logout(user);
    expect(await closedWithin(live, 2_000)).toBe(4001);
  });
});
