// The Sentinel failover notice (+switch-master) against a scripted Sentinel of the test's own (a few
// lines of RESP over a socket, so that the notice can be made to come at the exact step that matters)
// naming the shared Redis as the master. The connections cut are this test's own clients', by id.
import { createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedis, parseSentinelUrl, sentinelOptions } from './connect.js';
import { openSentinelWatches, parseSwitchMaster } from './sentinel-watch.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const master = new URL(REDIS_URL);
const MASTER_HOST = master.hostname;
const MASTER_PORT = Number(master.port || 6379);

function bulk(s: string): string {
  return `$${Buffer.byteLength(s)}\r\n${s}\r\n`;
}

/** Commands out of a RESP stream (arrays of bulk strings, as a client sends them); what is left over. */
function parseCommands(buffer: string): { commands: string[][]; rest: string } {
  const commands: string[][] = [];
  let at = 0;
  for (;;) {
    if (buffer[at] !== '*') break;
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const count = Number(buffer.slice(at + 1, lineEnd));
    let pos = lineEnd + 2;
    const args: string[] = [];
    for (let i = 0; i < count; i++) {
      const end = buffer.indexOf('\r\n', pos);
      if (end < 0 || buffer[pos] !== '$') return { commands, rest: buffer.slice(at) };
      const len = Number(buffer.slice(pos + 1, end));
      if (buffer.length < end + 2 + len + 2) return { commands, rest: buffer.slice(at) };
      args.push(buffer.slice(end + 2, end + 2 + len));
      pos = end + 2 + len + 2;
    }
    commands.push(args);
    at = pos;
  }
  return { commands, rest: buffer.slice(at) };
}

/**
 * A Sentinel for one master, `felt`, at the shared Redis: it answers the master's address (after
 * `delayMs` when set), an empty list of other Sentinels, and SUBSCRIBE; `announce` publishes a
 * +switch-master to its subscribers. `onAsked` runs when a client asks for the master.
 */
class ScriptedSentinel {
  delayMs = 0;
  onAsked: (() => void) | undefined;
  readonly subscribers = new Set<Socket>();
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<ScriptedSentinel> {
    const server = createServer();
    const sentinel = new ScriptedSentinel(server);
    server.on('connection', (socket) => sentinel.serve(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return sentinel;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  announce(message: string): void {
    for (const s of this.subscribers) s.write(`*3\r\n${bulk('message')}${bulk('+switch-master')}${bulk(message)}`);
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.subscribers.delete(socket);
    });
    socket.on('error', () => undefined);
    let buffer = '';
    socket.on('data', (chunk) => {
      const parsed = parseCommands(buffer + chunk.toString('latin1'));
      buffer = parsed.rest;
      for (const args of parsed.commands) this.answer(socket, args);
    });
  }

  private answer(socket: Socket, args: string[]): void {
    const [command = '', sub = ''] = args.map((a) => a.toLowerCase());
    if (command === 'sentinel' && sub === 'get-master-addr-by-name') {
      this.onAsked?.();
      const reply = `*2\r\n${bulk(MASTER_HOST)}${bulk(String(MASTER_PORT))}`;
      if (this.delayMs > 0) setTimeout(() => socket.writable && socket.write(reply), this.delayMs);
      else socket.write(reply);
    } else if (command === 'sentinel') {
      socket.write('*0\r\n');
    } else if (command === 'subscribe') {
      this.subscribers.add(socket);
      socket.write(`*3\r\n${bulk('subscribe')}${bulk(args[1] ?? '')}:1\r\n`);
    } else if (command === 'ping') {
      socket.write('+PONG\r\n');
    } else {
      socket.write('+OK\r\n');
    }
  }
}

let sentinel: ScriptedSentinel;
let admin: Redis;
const clients: Redis[] = [];

beforeAll(async () => {
  sentinel = await ScriptedSentinel.start();
  admin = new Redis(REDIS_URL, { lazyConnect: false });
});

afterEach(async () => {
  sentinel.delayMs = 0;
  sentinel.onAsked = undefined;
  // Each client's watch goes with its `end`, which comes after the disconnect returns.
  await Promise.all(
    clients.splice(0).map((c) => {
      if (c.status === 'end') return Promise.resolve();
      const ended = next(c, 'end');
      c.disconnect();
      return ended;
    }),
  );
});

afterAll(async () => {
  admin?.disconnect();
  await sentinel?.stop();
});

/** The scripted Sentinel's URL, with REDIS_URL's credentials (the data node's). */
/** A services' connection (createRedis) through the scripted Sentinel, closed after the test. */
function connect(name: string, options: { maxRetriesPerRequest?: null } = {}): Redis {
  const client = createRedis(url(), { name, ...options });
  client.on('error', () => undefined);
  clients.push(client);
  return client;
}

function url(): string {
  const auth = master.username || master.password ? `${master.username}:${master.password}@` : '';
  return `redis+sentinel://${auth}127.0.0.1:${sentinel.port}/felt`;
}

/** Resolves on the next event `name` of `client`. */
function next(client: Redis, name: string): Promise<void> {
  return new Promise((resolve) => client.once(name, () => resolve()));
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  await vi.waitFor(
    () => {
      if (!check()) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 10 },
  );
}

/**
 * Cuts the client's connection from the server's side (as a master that dies does), and announces a
 * failover while the client is asking the Sentinel for the master again: the step at which ioredis's
 * own detector ends a client for good.
 */
async function failoverWhileReconnecting(client: Redis): Promise<void> {
  const asked = new Promise<void>((resolve) => {
    sentinel.onAsked = () => {
      sentinel.onAsked = undefined;
      resolve();
    };
  });
  sentinel.delayMs = 300;
  const id = await client.client('ID');
  await admin.client('KILL', 'ID', String(id));
  await asked;
  expect(client.status).toBe('connecting');
  sentinel.announce(`felt ${MASTER_HOST} 1 ${MASTER_HOST} ${MASTER_PORT}`);
}

describe('parseSwitchMaster', () => {
  it('reads the name and the new address, and nothing else', () => {
    expect(parseSwitchMaster('felt 10.0.0.1 6379 10.0.0.2 6380')).toEqual({
      name: 'felt',
      host: '10.0.0.2',
      port: 6380,
    });
    for (const bad of ['', 'felt', 'felt 10.0.0.1 6379 10.0.0.2', 'felt a 1 b x', 'felt a 1 b 0', 'felt a 1 b 70000']) {
      expect(parseSwitchMaster(bad), bad).toBeUndefined();
    }
  });
});

describe('watchSentinelFailovers', () => {
  it(
    'a failover announced while a client reconnects leaves it working (ioredis’s own detector ends it for good)',
    { timeout: 30_000 },
    async () => {
      // The flaw, with ioredis's detector on: the client is left in `end`, every command refused.
      const target = parseSentinelUrl(url())!;
      const raw = new Redis({ ...sentinelOptions(target), failoverDetector: true, retryStrategy: () => 50 });
      raw.on('error', () => undefined);
      clients.push(raw);
      await next(raw, 'ready');
      await until('ioredis’s detector subscribed', () => sentinel.subscribers.size >= 1);
      const ended = next(raw, 'end');
      await failoverWhileReconnecting(raw);
      await ended;
      expect(raw.status).toBe('end');
      await expect(raw.ping()).rejects.toThrow('Connection is closed.');
      raw.disconnect();
      await until('its subscriptions gone', () => sentinel.subscribers.size === 0);

      // The services' connection (createRedis): reconnected, and answering.
      const client = connect('test-sentinel-watch', { maxRetriesPerRequest: null });
      await next(client, 'ready');
      await until('the watch subscribed', () => sentinel.subscribers.size >= 1);
      const ready = next(client, 'ready');
      await failoverWhileReconnecting(client);
      await ready;
      expect(await client.ping()).toBe('PONG');
      expect(client.status).toBe('ready');
    },
  );

  it(
    'moves a connected client at once when another master is announced, and only then',
    { timeout: 30_000 },
    async () => {
      const client = connect('test-sentinel-watch-move', { maxRetriesPerRequest: null });
      await next(client, 'ready');
      await until('the watch subscribed', () => sentinel.subscribers.size >= 1);
      const idBefore = await client.client('ID');
      let reconnects = 0;
      client.on('reconnecting', () => reconnects++);

      // Another master's failover, and this master's announced where the client is already: nothing.
      sentinel.announce(`other ${MASTER_HOST} 1 ${MASTER_HOST} 2`);
      sentinel.announce(`felt ${MASTER_HOST} 1 ${MASTER_HOST} ${MASTER_PORT}`);
      expect(await client.ping()).toBe('PONG');
      expect(reconnects).toBe(0);
      expect(await client.client('ID')).toBe(idBefore);

      // Announced elsewhere: the client drops its connection and asks the Sentinel again.
      const ready = next(client, 'ready');
      sentinel.announce(`felt ${MASTER_HOST} ${MASTER_PORT} 10.255.255.1 6399`);
      await ready;
      expect(reconnects).toBe(1);
      expect(await client.client('ID')).not.toBe(idBefore);
    },
  );

  it('moves the copies made with duplicate() too (BullMQ’s worker connections)', { timeout: 30_000 }, async () => {
    const client = connect('test-sentinel-watch-copied', { maxRetriesPerRequest: null });
    const copy = client.duplicate();
    const copyOfCopy = copy.duplicate();
    const all = [client, copy, copyOfCopy];
    for (const c of [copy, copyOfCopy]) {
      c.on('error', () => undefined);
      clients.push(c);
    }
    await Promise.all(all.map((c) => next(c, 'ready')));
    await until('the watch subscribed', () => sentinel.subscribers.size >= 1);
    const ready = Promise.all(all.map((c) => next(c, 'ready')));
    sentinel.announce(`felt ${MASTER_HOST} ${MASTER_PORT} 10.255.255.1 6399`);
    await ready;
    for (const c of all) expect(await c.ping()).toBe('PONG');
  });

  it('shares one subscription per Sentinel among a process’s clients, and closes it with the last', async () => {
    const before = openSentinelWatches();
    const a = connect('test-sentinel-watch-a');
    const b = connect('test-sentinel-watch-b');
    await Promise.all([next(a, 'ready'), next(b, 'ready')]);
    await until('the watch subscribed', () => sentinel.subscribers.size >= 1);
    expect(openSentinelWatches()).toBe(before + 1);
    expect(sentinel.subscribers.size).toBe(1);
    let ended = next(a, 'end');
    await a.quit();
    await ended;
    expect(openSentinelWatches()).toBe(before + 1);
    expect(sentinel.subscribers.size).toBe(1);
    ended = next(b, 'end');
    await b.quit();
    await ended;
    expect(openSentinelWatches()).toBe(before);
    await until('the subscription closed', () => sentinel.subscribers.size === 0);
  });
});
