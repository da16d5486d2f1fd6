import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LoadConfig } from './args.js';
import { resolveGateways } from './gateways.js';
import { defaultDeps, runLoad } from './runner.js';
import { LobbyRoute, SESSION_COOKIE } from './wire.js';

// A stand-in lobby and gateway speaking the scenario's routes and frames, so the runner's own logic
// (grouping, cookies, ping loop, counters, failure kinds) is tested without a cluster. The real
// cluster run is by hand (docs/operations.md).

interface FakeOptions {
  /** Refuse the upgrade of the users it matches with 401. */
  refuse?: (user: string) => boolean;
  /** Answer room creation with 500. */
  failCreate?: boolean;
  /** Close each socket with this code right after answering join_table. */
  closeAfterJoin?: number;
  /** Never answer pings. */
  silent?: boolean;
  /** Refuse each socket's first join_table as unavailable (a table still starting). */
  unavailableFirst?: boolean;
  /** Pretend nobody is a member of any room. */
  noMembers?: boolean;
}

interface Fake {
  lobby: URL;
  gateway: string;
  rooms: Map<string, { code: string; members: string[] }>;
  origins: string[];
  /** Rooms closed by their host, in order. */
  closed: string[];
  close(): Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

async function body(req: IncomingMessage): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return (text === '' ? {} : JSON.parse(text)) as Record<string, string>;
}

async function startFake(options: FakeOptions = {}): Promise<Fake> {
  let gatewayPortOf = (): number => 0;
  const users = new Map<string, string>();
  const rooms = new Map<string, { code: string; members: string[] }>();
  const origins: string[] = [];
  const closed: string[] = [];
  const userOf = (req: IncomingMessage): string | undefined => {
    const m = new RegExp(`${SESSION_COOKIE}=tok-([\\w]+)`).exec(req.headers.cookie ?? '');
    return m?.[1];
  };
  const reply = (res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(payload));
  };

  const lobbyServer = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET' && req.url === LobbyRoute.CONFIG) {
        return reply(res, 200, { gateway_urls: [`ws://127.0.0.1:${gatewayPortOf()}/ws`] });
      }
      const b = await body(req);
      const user = userOf(req);
      if (req.url === LobbyRoute.SIGNUP) {
        // The lobby's credential rules (services/lobby schemas).
        if (!/^[A-Za-z0-9_-]{3,24}$/.test(b['name'] ?? '') || !/^.{8,128}$/.test(b['password'] ?? ''))
          return reply(res, 400, { error: 'invalid_request' });
        if (users.has(b['name']!)) return reply(res, 409, { error: 'name_taken' });
        users.set(b['name']!, b['password']!);
        return reply(res, 201, { name: b['name'] });
      }
      if (req.url === LobbyRoute.LOGIN) {
        if (users.get(b['name']!) !== b['password']) return reply(res, 401, { error: 'bad_credentials' });
        return reply(
          res,
          200,
          {},
          { 'set-cookie': `${SESSION_COOKIE}=tok-${b['name']}; HttpOnly; SameSite=Lax; Path=/` },
        );
      }
      if (!user) return reply(res, 401, { error: 'unauthenticated' });
      const closing = /^\/api\/rooms\/([\w-]+)$/.exec(req.url ?? '');
      if (req.method === 'DELETE' && closing) {
        const room = rooms.get(closing[1]!);
        if (!room) return reply(res, 404, { error: 'room_not_found' });
        if (room.members[0] !== user) return reply(res, 403, { error: 'not_host' });
        closed.push(closing[1]!);
        return reply(res, 200, { session_id: closing[1] });
      }
      if (req.url === LobbyRoute.ROOMS) {
        if (options.failCreate === true) return reply(res, 500, { error: 'internal' });
        const id = `room${rooms.size}`;
        const code = String(100000 + rooms.size);
        rooms.set(id, { code, members: [user] });
        return reply(res, 201, { session_id: id, code });
      }
      if (req.url === LobbyRoute.JOIN_BY_CODE) {
        if (!/^[0-9]{6}$/.test(b['code'] ?? '') || typeof b['buy_in'] !== 'number')
          return reply(res, 400, { error: 'invalid_request' });
        const entry = [...rooms].find(([, r]) => r.code === b['code']);
        if (!entry) return reply(res, 404, { error: 'room_not_found' });
        entry[1].members.push(user);
        return reply(res, 200, { session_id: entry[0], code: entry[1].code });
      }
      return reply(res, 404, { error: 'not_found' });
    })();
  });

  const gatewayServer = createServer();
  const wss = new WebSocketServer({ noServer: true });
  gatewayServer.on('upgrade', (req, socket, head) => {
    const user = userOf(req);
    origins.push(req.headers.origin ?? '');
    if (!user || options.refuse?.(user) === true) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      let joins = 0;
      ws.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as {
          type: string;
          table_id?: string;
          nonce?: string;
          command_id?: string;
        };
        if (frame.type === 'join_table') {
          joins += 1;
          const refuse = (code: string): void =>
            ws.send(JSON.stringify({ type: 'error', code, message: code, command_id: frame.command_id }));
          const room = rooms.get(frame.table_id ?? '');
          if (options.noMembers === true || !room?.members.includes(user)) return refuse('not_member');
          if (options.unavailableFirst === true && joins === 1) return refuse('unavailable');
          ws.send(JSON.stringify({ type: 'table_state', table_id: frame.table_id, table_seq: 1, ts: 0, seats: [] }));
          if (options.closeAfterJoin !== undefined) ws.close(options.closeAfterJoin, 'test');
        } else if (frame.type === 'ping' && !options.silent) {
          ws.send(JSON.stringify({ type: 'pong', nonce: frame.nonce, ts: 0 }));
        }
      });
    });
  });

  const lobbyPort = await listen(lobbyServer);
  const gatewayPort = await listen(gatewayServer);
  gatewayPortOf = () => gatewayPort;
  return {
    lobby: new URL(`http://127.0.0.1:${lobbyPort}`),
    gateway: `ws://127.0.0.1:${gatewayPort}/ws`,
    rooms,
    origins,
    closed,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      return Promise.resolve();
    },
  };
}

function config(fake: Fake, overrides: Partial<LoadConfig> = {}): LoadConfig {
  return {
    lobby: fake.lobby,
    users: 4,
    durationS: 1,
    rampUpS: 0,
    roomSize: 2,
    pingIntervalMs: 20,
    timeoutMs: 2000,
    gateways: [fake.gateway],
    origin: 'http://felt.test',
    ...overrides,
  };
}

const run = async (c: LoadConfig): Promise<{ stats: Awaited<ReturnType<typeof runLoad>>; log: string[] }> => {
  const log: string[] = [];
  const stats = await runLoad(
    c,
    defaultDeps(c, (l) => log.push(l)),
  );
  return { stats, log };
};

describe('resolveGateways', () => {
  it('prefers --gateway, then the lobby’s /api/config, then the lobby’s origin at /ws', async () => {
    const fake = await startFake();
    const log: string[] = [];
    expect(await resolveGateways(config(fake), (l) => log.push(l))).toEqual([fake.gateway]);
    expect(await resolveGateways(config(fake, { gateways: [] }), (l) => log.push(l))).toEqual([fake.gateway]);
    const nowhere = new URL('http://127.0.0.1:9/');
    expect(
      await resolveGateways(config(fake, { gateways: [], lobby: nowhere, timeoutMs: 500 }), () => undefined),
    ).toEqual(['ws://127.0.0.1:9/ws']);
    await fake.close();
  });
});

describe('runLoad against a stand-in lobby and gateway', () => {
  it('seats users in rooms by code, joins their tables and measures ping round trips', async () => {
    const fake = await startFake();
    const { stats, log } = await run(config(fake));
    await fake.close();
    expect(log).toEqual([]);
    expect(stats.errors).toBe(0);
    expect(stats.connected).toBe(4);
    expect(stats.joined).toBe(4);
    expect([...fake.rooms.values()].map((r) => r.members.length)).toEqual([2, 2]);
    // Each host closed its room at the end of the run.
    expect(fake.closed.sort()).toEqual([...fake.rooms.keys()].sort());
    expect(fake.origins).toEqual(Array(4).fill('http://felt.test'));
    // Each user sent join_table plus at least a few pings, and every frame got exactly one answer.
    expect(stats.msgsOut).toBeGreaterThanOrEqual(4 * 3);
    expect(stats.msgsIn).toBe(stats.msgsOut);
    expect(stats.rttCount).toBe(stats.msgsOut - 4);
    expect(stats.summaryLine(4)).toMatch(
      /^LOAD users=4 connected=4 msgs_in=\d+ msgs_out=\d+ errors=0 p50_rtt_ms=\d+\.\d p99_rtt_ms=\d+\.\d$/,
    );
  });

  it('counts a refused upgrade under its status and keeps the other users going', async () => {
    // The runner names users lt<run>u<i>: refuse the second one.
    const fake = await startFake({ refuse: (user) => user.endsWith('u1') });
    const { stats, log } = await run(config(fake, { users: 2 }));
    await fake.close();
    expect(stats.connected).toBe(1);
    expect([...stats.errorBreakdown()]).toEqual([['ws_upgrade_refused_401', 1]]);
    expect(log.join('\n')).toContain('upgrade refused with HTTP 401');
    expect(stats.rttCount).toBeGreaterThan(0);
  });

  it('reports sockets the server closes, by close code', async () => {
    const fake = await startFake({ closeAfterJoin: 4013 });
    const { stats } = await run(config(fake, { users: 2 }));
    await fake.close();
    expect(stats.connected).toBe(2);
    expect([...stats.errorBreakdown()]).toEqual([['closed_4013', 2]]);
  });

  it('counts unanswered pings as timeouts', async () => {
    const fake = await startFake({ silent: true });
    const { stats } = await run(config(fake, { users: 2, timeoutMs: 200, durationS: 2 }));
    await fake.close();
    expect([...stats.errorBreakdown()]).toEqual([['ping_timeout', 2]]);
    expect(stats.rttCount).toBe(0);
    expect(stats.summaryLine(2)).toContain('p50_rtt_ms=na');
  });

  it('counts a lobby refusal once, by step and status, without the room members piling on', async () => {
    const fake = await startFake({ failCreate: true });
    const { stats, log } = await run(config(fake, { users: 4 }));
    await fake.close();
    expect([...stats.errorBreakdown()]).toEqual([['create_room_http_500', 2]]);
    expect(log.filter((l) => l.includes('room creator failed; not joining'))).toHaveLength(2);
    expect(stats.connected).toBe(0);
    expect(stats.summaryLine(4)).toBe(
      'LOAD users=4 connected=0 msgs_in=0 msgs_out=0 errors=2 p50_rtt_ms=na p99_rtt_ms=na',
    );
  });

  it('retries a join refused as unavailable once, as a client should, and counts other refusals', async () => {
    const flaky = await startFake({ unavailableFirst: true });
    const retried = await run(config(flaky, { users: 2 }));
    await flaky.close();
    expect(retried.stats.errors).toBe(0);
    expect(retried.log.filter((l) => l.includes('join refused as unavailable; retrying'))).toHaveLength(2);
    expect(retried.stats.rttCount).toBeGreaterThan(0);

    const refusing = await startFake({ noMembers: true });
    const refused = await run(config(refusing, { users: 2 }));
    await refusing.close();
    expect([...refused.stats.errorBreakdown()]).toEqual([['join_not_member', 2]]);
    expect(refused.stats.rttCount).toBe(0);
  });
});
