import { randomBytes } from 'node:crypto';
import { Server, ServerCredentials, type ServerDuplexStream } from '@grpc/grpc-js';
import {
  ChannelSubscriber,
  closeRedis,
  createLogger,
  createMetricsRegistry,
  createRedis,
  RingView,
  signSessionToken,
  WorkerRegistry,
  type Redis,
  type Registry,
  revocationsLoadedKey,
} from '@felt/platform';
import {
  HealthResponse_Status,
  TableServiceService,
  type ClientCommand,
  type GatewayFrame,
  type TableServiceServer,
  type WorkerFrame,
} from '@felt/proto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { GatewayCloseCode } from '../src/close-codes.js';
import { Gateway, type GatewayOptions } from '../src/gateway.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRET = 's'.repeat(40);
const MAX_PAYLOAD = 1024;
/** The blind gateway's limits: uWS reads up to 2 × 65536 bytes, past the blind_shuffle limit. */
const BLIND = { payload: 65_536, blind: 110_000 } as const;
const HEX = (n: number) => n.toString(16).padStart(2, '0').repeat(32);

/** A blind_shuffle frame (schema-valid, not a valid proof) of about `bytes` bytes, and its exact size. */
function blindShuffle(tableId: string, bytes: number, commandId = 'bs'): string {
  const frame = (openings: number) =>
    JSON.stringify({
      type: 'blind_shuffle',
      table_id: tableId,
      hand_id: '11111111-1111-4111-8111-111111111111',
      command_id: commandId,
      output: Array.from({ length: 52 }, (_, i) => ({ c1: HEX(i), c2: HEX(i + 1) })),
      proof: {
        openings: Array.from({ length: openings }, (_, k) =>
          k % 2 === 0
            ? { seed: HEX(k % 256) }
            : {
                perm: Array.from({ length: 52 }, (_, j) => (j + k) % 52),
                rand: Array.from({ length: 52 }, (_, j) => HEX(j)),
              },
        ),
      },
    });
  let n = 1;
  while (n < 256 && frame(n + 1).length <= bytes) n++;
  return frame(n);
}

/**
 * A worker that attaches anyone to any table (answering with a snapshot) and counts the attaches; it
 * keeps the commands it gets, and refuses engine-blind ones with not_engine_blind.
 */
function permissiveWorker(attaches: string[], commands: ClientCommand['command'][] = []): TableServiceServer {
  return {
    connect(call: ServerDuplexStream<GatewayFrame, WorkerFrame>) {
      let seq = 0;
      call.on('data', (f: GatewayFrame) => {
        const frame = f.frame;
        if (frame?.$case === 'hello')
          return void call.write({ frame: { $case: 'welcome', welcome: { workerId: 'w-any' } } });
        if (frame?.$case !== 'attach' && frame?.$case !== 'command') return;
        const r = frame.$case === 'attach' ? frame.attach : frame.command;
        attaches.push(r.tableId);
        if (frame.$case === 'command') {
          const c = frame.command.command;
          commands.push(c);
          if (c?.$case === 'blindKey' || c?.$case === 'blindShuffle' || c?.$case === 'blindShares') {
            // As the table worker answers them until tables deal engine-blind hands.
            const error = { requestId: r.requestId, tableId: r.tableId, code: 'not_engine_blind', message: 'no' };
            return void call.write({ frame: { $case: 'error', error } });
          }
        }
        seq++;
        const msg = { type: 'table_state', table_id: r.tableId, table_seq: seq };
        call.write({
          frame: {
            $case: 'reply',
            reply: {
              requestId: r.requestId,
              connectionId: r.connectionId,
              tableId: r.tableId,
              tableSeq: seq,
              messageJson: Buffer.from(JSON.stringify(msg)),
            },
          },
        });
        call.write({ frame: { $case: 'ack', ack: { requestId: r.requestId, tableId: r.tableId, atTableSeq: seq } } });
      });
      call.on('end', () => call.end());
    },
    health: (_c, cb) => cb(null, { workerId: 'w-any', status: HealthResponse_Status.STATUS_SERVING, liveTables: 0 }),
    drain: (_c, cb) => cb(null, { workerId: 'w-any', draining: true }),
    // Gateways never send tournament messages.
    tournament: (_c, cb) => cb(null, { result: undefined }),
  };
}

interface Client {
  readonly ws: WebSocket;
  readonly messages: Record<string, unknown>[];
  readonly closed: Promise<{ code: number; reason: string }>;
  /** The first message from index `from` matching `match`. */
  next(match: (m: Record<string, unknown>) => boolean, from?: number): Promise<Record<string, unknown>>;
}

describe('gateway limits (in-process gateway, real Redis and gRPC)', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const attaches: string[] = [];
  const commands: ClientCommand['command'][] = [];
  let redis: Redis;
  let sub: Redis;
  let server: Server;
  let registry: WorkerRegistry;
  let ring: RingView;
  let gateway: Gateway;
  let metrics: Registry;
  let port = 0;
  /** GATEWAY_MAX_PAYLOAD and GATEWAY_MAX_BLIND_PAYLOAD set, uWS reading up to twice the former. */
  let blindGateway: Gateway;
  let blindMetrics: Registry;
  let blindPort = 0;

  beforeAll(async () => {
    redis = createRedis(REDIS_URL, { name: 'limits-test' });
    sub = createRedis(REDIS_URL, { name: 'limits-test-sub', maxRetriesPerRequest: null });
    // A lobby has loaded the revocation keys: the list is complete, so sessions are accepted.
    await redis.set(revocationsLoadedKey(prefix), '1');
    server = new Server();
    server.addService(TableServiceService, permissiveWorker(attaches, commands));
    const grpcPort = await new Promise<number>((res, rej) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
    );
    registry = new WorkerRegistry({
      redis,
      prefix,
      member: { id: 'w-any', addr: `127.0.0.1:${grpcPort}`, httpAddr: '' },
      heartbeatMs: 60_000,
      ttlMs: 60_000,
    });
    await registry.start();
    ring = new RingView({ redis, subscriber: new ChannelSubscriber(sub), prefix, refreshMs: 60_000 });
    await ring.start();
    metrics = createMetricsRegistry('gateway');
    gateway = newGateway('gw-limits', { maxPayload: MAX_PAYLOAD, metricsRegistry: metrics });
    blindMetrics = createMetricsRegistry('gateway');
    blindGateway = newGateway('gw-blind', {
      maxPayload: BLIND.payload,
      maxBlindPayload: BLIND.blind,
      metricsRegistry: blindMetrics,
    });
    port = await gateway.start();
    blindPort = await blindGateway.start();
    for (const g of [gateway, blindGateway]) {
      await vi.waitFor(() => expect(g.ready().ready, 'the gateway has a stream to the worker').toBe(true), {
        timeout: 20_000,
        interval: 20,
      });
    }
  });

  function newGateway(
    gatewayId: string,
    limits: Pick<GatewayOptions, 'maxPayload' | 'maxBlindPayload' | 'metricsRegistry'> &
      Partial<Pick<GatewayOptions, 'ratePerSec' | 'rateBurst'>>,
  ): Gateway {
    return new Gateway({
      gatewayId,
      host: '127.0.0.1',
      port: 0,
      secret: SECRET,
      prefix,
      allowedOrigins: [],
      ratePerSec: 100_000,
      rateBurst: 100_000,
      maxSocketsPerUser: 2,
      maxSocketsPerAddress: 3,
      maxTablesPerSocket: 2,
      trustProxyHops: 1,
      debugEndpoints: false,
      redis,
      subscriber: new ChannelSubscriber(sub),
      ring,
      logger: createLogger('gateway', { level: 'silent' }),
      sessionCheckMs: 60_000,
      ...limits,
    });
  }

  afterAll(async () => {
    await gateway?.stop();
    await blindGateway?.stop();
    await ring?.stop();
    await registry?.stop();
    server?.forceShutdown();
    await closeRedis(sub);
    await closeRedis(redis);
  });

  let users = 0;
  async function connect(options: { userId?: string; forwardedFor?: string; port?: number } = {}): Promise<Client> {
    const userId = options.userId ?? `u${++users}`;
    const token = await signSessionToken(SECRET, { userId, sessionId: `s-${userId}`, name: 'U', expiresAt: 4e9 });
    const headers: Record<string, string> = { cookie: `felt_session=${token}` };
    if (options.forwardedFor !== undefined) headers['x-forwarded-for'] = options.forwardedFor;
    const ws = new WebSocket(`ws://127.0.0.1:${options.port ?? port}/ws`, { headers });
    const messages: Record<string, unknown>[] = [];
    const listeners = new Set<() => void>();
    ws.on('message', (d) => {
      messages.push(JSON.parse((d as Buffer).toString('utf8')) as Record<string, unknown>);
      for (const l of listeners) l();
    });
    ws.on('error', () => undefined);
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    await new Promise((res, rej) => {
      ws.once('open', res);
      ws.once('unexpected-response', () => rej(new Error('upgrade refused')));
    });
    const next = (match: (m: Record<string, unknown>) => boolean, from = 0) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const check = () => {
          const hit = messages.slice(from).find(match);
          if (hit) {
            listeners.delete(check);
            resolve(hit);
          }
        };
        listeners.add(check);
        check();
        void closed.then((c) => reject(new Error(`closed with ${c.code} before a matching message`)));
      });
    return { ws, messages, closed, next };
  }

  /** Whether the gateway kept the socket: its answer to a ping, or how it closed. */
  async function probe(c: Client): Promise<'pong' | number> {
    const nonce = randomBytes(4).toString('hex');
    if (c.ws.readyState === WebSocket.OPEN) c.ws.send(JSON.stringify({ type: 'ping', nonce }));
    return Promise.race([
      c.next((m) => m.type === 'pong' && m.nonce === nonce).then(() => 'pong' as const),
      c.closed.then((x) => x.code),
    ]);
  }

  async function close(...clients: Client[]): Promise<void> {
    for (const c of clients) c.ws.close();
    await Promise.all(clients.map((c) => c.closed));
  }

  const metricText = () => metrics.metrics();

  it('closes a socket over the per-account cap with 4029 and its reason; a closed socket frees its slot', async () => {
    const a = await connect({ userId: 'ann' });
    const b = await connect({ userId: 'ann' });
    const c = await connect({ userId: 'ann' });
    expect(await c.closed).toEqual({
      code: GatewayCloseCode.TOO_MANY_SOCKETS,
      reason: 'too many sockets for this account (at most 2)',
    });
    expect(await probe(a)).toBe('pong');
    expect(await probe(b)).toBe('pong');
    await close(a);
    const d = await connect({ userId: 'ann' });
    expect(await probe(d)).toBe('pong');
    expect(await metricText()).toMatch(/felt_gateway_refusals_total\{reason="user_socket_limit",service="gateway"\} 1/);
    await close(b, d);
  });

  it('counts the address the trusted proxy appended, whatever the client put before it', async () => {
    const kept = [
      await connect({ forwardedFor: '203.0.113.7' }),
      await connect({ forwardedFor: '10.1.1.1, 203.0.113.7' }),
      await connect({ forwardedFor: '203.0.113.7' }),
    ];
    for (const c of kept) expect(await probe(c)).toBe('pong');
    const over = await connect({ forwardedFor: '198.51.100.1, 203.0.113.7' });
    expect(await over.closed).toEqual({
      code: GatewayCloseCode.TOO_MANY_SOCKETS,
      reason: 'too many sockets from this address (at most 3)',
    });
    const elsewhere = await connect({ forwardedFor: '203.0.113.7, 198.51.100.1' });
    expect(await probe(elsewhere)).toBe('pong');
    await close(...kept, elsewhere);
  });

  it('refuses one join_table over the table cap with limit_reached before asking a worker', async () => {
    const c = await connect();
    const before = attaches.length;
    for (const t of ['t1', 't2']) {
      c.ws.send(JSON.stringify({ type: 'join_table', table_id: t }));
      await c.next((m) => m.type === 'table_state' && m.table_id === t);
    }
    c.ws.send(JSON.stringify({ type: 'join_table', table_id: 't3', command_id: 'c3' }));
    expect(await c.next((m) => m.type === 'error')).toMatchObject({
      code: 'limit_reached',
      command_id: 'c3',
      table_id: 't3',
    });
    expect(attaches.slice(before)).toEqual(['t1', 't2']);
    // Joining a table it is at again is not one more.
    const from = c.messages.length;
    c.ws.send(JSON.stringify({ type: 'join_table', table_id: 't2', command_id: 'again' }));
    await c.next((m) => m.type === 'table_state' && m.table_id === 't2', from);
    c.ws.send(JSON.stringify({ type: 'leave_table', table_id: 't1' }));
    c.ws.send(JSON.stringify({ type: 'join_table', table_id: 't3' }));
    await c.next((m) => m.type === 'table_state' && m.table_id === 't3');
    expect(c.messages.filter((m) => m.type === 'error')).toHaveLength(1);
    await close(c);
  });

  it('closes with 1009 up to twice the payload limit; past it uWS drops the connection without reading the frame', async () => {
    const read = await connect();
    read.ws.send('x'.repeat(2 * MAX_PAYLOAD));
    expect((await read.closed).code).toBe(1009);
    const unread = await connect();
    unread.ws.send('x'.repeat(2 * MAX_PAYLOAD + 1));
    expect((await unread.closed).code).toBe(1006);
    const text = await metricText();
    expect(text).toMatch(/felt_gateway_messages_in_total\{type="oversized",service="gateway"\} 1/);
    expect(text).toMatch(/felt_gateway_messages_in_total\{type="oversized_unread",service="gateway"\} 1/);
  });

  it('reads a blind_shuffle past GATEWAY_MAX_PAYLOAD up to GATEWAY_MAX_BLIND_PAYLOAD and forwards it as bytes; any other type that large closes 1009', async () => {
    const c = await connect({ port: blindPort });
    c.ws.send(JSON.stringify({ type: 'join_table', table_id: 'tb' }));
    await c.next((m) => m.type === 'table_state' && m.table_id === 'tb');
    const big = blindShuffle('tb', 100_000);
    expect(big.length).toBeGreaterThan(BLIND.payload);
    expect(big.length).toBeLessThanOrEqual(BLIND.blind);
    c.ws.send(big);
    // Forwarded: the worker's refusal comes back as the frame's error, and the socket stays open.
    expect(await c.next((m) => m.type === 'error')).toMatchObject({
      code: 'not_engine_blind',
      command_id: 'bs',
      table_id: 'tb',
    });
    const sent = commands.at(-1);
    if (sent?.$case !== 'blindShuffle') throw new Error('the worker got no blind_shuffle');
    expect(sent.blindShuffle.output).toHaveLength(52);
    expect(sent.blindShuffle.output[1]!.c1.toString('hex')).toBe(HEX(1));
    expect(await probe(c)).toBe('pong');
    // Too large and malformed is invalid_frame, as at any size: the socket stays.
    const from = c.messages.length;
    c.ws.send(big.replace('"output"', '"deck"'));
    expect(await c.next((m) => m.type === 'error', from)).toMatchObject({ code: 'invalid_frame', command_id: 'bs' });
    expect(await probe(c)).toBe('pong');
    await close(c);

    const oversized = async () =>
      Number(
        /felt_gateway_messages_in_total\{type="oversized",service="gateway"\} (\d+)/.exec(
          await blindMetrics.metrics(),
        )?.[1] ?? 0,
      );
    const before = await oversized();
    // Any other type over GATEWAY_MAX_PAYLOAD: a ~100 KB chat, a ping, text that is not JSON.
    const chat = JSON.stringify({ type: 'chat', table_id: 'tb', text: 'x'.repeat(100_000) });
    for (const frame of [chat, JSON.stringify({ type: 'ping', nonce: 'n'.repeat(100_000) }), 'x'.repeat(100_000)]) {
      const s = await connect({ port: blindPort });
      s.ws.send(frame);
      expect((await s.closed).code, frame.slice(0, 20)).toBe(1009);
    }
    // A blind_shuffle over its own limit, read (under twice GATEWAY_MAX_PAYLOAD) and refused unparsed.
    const over = blindShuffle('tb', 125_000);
    expect(over.length).toBeGreaterThan(BLIND.blind);
    expect(over.length).toBeLessThanOrEqual(2 * BLIND.payload);
    const s = await connect({ port: blindPort });
    s.ws.send(over);
    expect((await s.closed).code).toBe(1009);
    expect(await oversized()).toBe(before + 4);
    // Past uWS's read limit (the larger of twice GATEWAY_MAX_PAYLOAD and the blind limit): dropped unread.
    const unread = await connect({ port: blindPort });
    unread.ws.send(blindShuffle('tb', 2 * BLIND.payload + 10_000));
    expect((await unread.closed).code).toBe(1006);
  });

  it('charges a blind_shuffle past GATEWAY_MAX_PAYLOAD the rate-limit tokens of as many full-size frames', async () => {
    // 1 token a second, 10 at most: a ~100 KB shuffle over a 16 KB limit costs 7 of them, so a second
    // one at once is refused (at one token a frame it would pass), while small frames still fit.
    const limited = newGateway('gw-blind-rate', {
      maxPayload: 16_384,
      maxBlindPayload: 131_072,
      metricsRegistry: createMetricsRegistry('gateway'),
      ratePerSec: 1,
      rateBurst: 10,
    });
    const limitedPort = await limited.start();
    try {
      await vi.waitFor(() => expect(limited.ready().ready).toBe(true), { timeout: 20_000, interval: 20 });
      const c = await connect({ port: limitedPort });
      c.ws.send(JSON.stringify({ type: 'join_table', table_id: 'tr' }));
      await c.next((m) => m.type === 'table_state' && m.table_id === 'tr');
      c.ws.send(blindShuffle('tr', 100_000, 'first'));
      expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'not_engine_blind', command_id: 'first' });
      const from = c.messages.length;
      c.ws.send(blindShuffle('tr', 100_000, 'second'));
      expect(await c.next((m) => m.type === 'error', from)).toMatchObject({ code: 'rate_limited' });
      await close(c);
    } finally {
      await limited.stop();
    }
  });

  it('without a blind limit, a blind_shuffle over GATEWAY_MAX_PAYLOAD is refused as any frame', async () => {
    const c = await connect();
    c.ws.send(`{"type":"blind_shuffle","table_id":"t1","pad":"${'x'.repeat(MAX_PAYLOAD)}"}`);
    expect((await c.closed).code).toBe(1009);
  });

  it('echoes an empty ping nonce', async () => {
    const c = await connect();
    c.ws.send(JSON.stringify({ type: 'ping', nonce: '' }));
    expect(await c.next((m) => m.type === 'pong')).toMatchObject({ nonce: '' });
    await close(c);
  });
});
