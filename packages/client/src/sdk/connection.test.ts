import { describe, expect, it } from 'vitest';
import { FakeTimers } from '../../test/support/fake-timers.js';
import { FakeSocketFactory } from '../../test/support/fake-socket.js';
import { Connection, ConnectionStatus, type ConnectionEvents } from './connection.js';

function setup(random: () => number = () => 0.5, urls = ['ws://g1/ws', 'ws://g2/ws']) {
  const timers = new FakeTimers();
  const factory = new FakeSocketFactory();
  const conn = new Connection({
    urls,
    socketFactory: factory.create,
    timers,
    random,
    backoff: { baseMs: 100, maxMs: 1_000 },
    stableAfterMs: 5_000,
    connectTimeoutMs: 2_000,
    pingIntervalMs: 0,
  });
  const closes: ConnectionEvents['close'][] = [];
  const opens: ConnectionEvents['open'][] = [];
  conn.on('close', (c) => closes.push(c));
  conn.on('open', (o) => opens.push(o));
  return { timers, factory, conn, closes, opens };
}

describe('Connection: reconnect with exponential backoff and full jitter', () => {
  it('reconnects after a drop with delays drawn as random() × the growing ceiling, rotating gateways', () => {
    const draws = [0.5, 0.25, 0.9, 0.1, 0.7, 0.3];
    let i = 0;
    const { timers, factory, conn, closes, opens } = setup(() => draws[i++ % draws.length]!);
    conn.connect();
    factory.last.acceptOpen();
    expect(opens).toEqual([{ url: 'ws://g1/ws', reconnect: false }]);

    // Five consecutive failures: ceilings 100, 200, 400, 800, 1000 (cap).
    factory.last.serverClose(1006);
    for (let k = 0; k < 4; k++) {
      const before = factory.sockets.length;
      timers.advance(closes.at(-1)!.retryInMs!);
      expect(factory.sockets.length).toBe(before + 1);
      factory.last.serverClose(1006);
    }
    expect(closes.map((c) => c.retryInMs)).toEqual([50, 50, 360, 80, 700]);
    expect(factory.sockets.map((s) => s.url)).toEqual([
      'ws://g1/ws',
      'ws://g2/ws',
      'ws://g1/ws',
      'ws://g2/ws',
      'ws://g1/ws',
    ]);
    expect(conn.state).toBe(ConnectionStatus.WAITING);

    timers.advance(700);
    factory.last.acceptOpen();
    expect(opens.at(-1)).toEqual({ url: 'ws://g2/ws', reconnect: true });
  });

  it('waits the whole delay: nothing is opened a millisecond early', () => {
    const { timers, factory, conn, closes } = setup(() => 0.5);
    conn.connect();
    factory.last.acceptOpen();
    factory.last.serverClose(1001);
    expect(closes.at(-1)!.retryInMs).toBe(50);
    timers.advance(49);
    expect(factory.sockets).toHaveLength(1);
    timers.advance(1);
    expect(factory.sockets).toHaveLength(2);
  });

  it('a connection that stayed up past stableAfterMs resets the backoff; a flapping one does not', () => {
    const { timers, factory, conn, closes } = setup(() => 0.999);
    conn.connect();
    factory.last.acceptOpen();
    factory.last.serverClose();
    timers.advance(closes.at(-1)!.retryInMs!);
    factory.last.acceptOpen();
    timers.advance(10); // flaps at once
    factory.last.serverClose();
    expect(closes.map((c) => c.retryInMs)).toEqual([99, 199]);
    timers.advance(closes.at(-1)!.retryInMs!);
    factory.last.acceptOpen();
    timers.advance(6_000); // stable
    factory.last.serverClose();
    expect(closes.at(-1)!.retryInMs).toBe(99);
  });

  it('a socket that never opens is abandoned after the connect timeout and retried', () => {
    const { timers, factory, conn, closes } = setup(() => 0);
    conn.connect();
    timers.advance(2_000);
    expect(closes.at(-1)).toMatchObject({ reason: 'connect timeout', fatal: false });
    expect(factory.sockets[0]!.closedWith).toBeDefined();
    timers.advance(0);
    expect(factory.sockets).toHaveLength(2);
  });

  it('a session that ended (4001) is not retried', () => {
    const { timers, factory, conn, closes } = setup();
    conn.connect();
    factory.last.acceptOpen();
    factory.last.serverClose(4001, 'session ended');
    expect(closes.at(-1)).toEqual({ code: 4001, reason: 'session ended', fatal: true });
    expect(conn.state).toBe(ConnectionStatus.CLOSED);
    timers.advance(60_000);
    expect(factory.sockets).toHaveLength(1);
  });

  it('too many sockets (4029) or rate-limit abuse (4008): retried, but only after a long backoff', () => {
    for (const code of [4029, 4008]) {
      const { factory, conn, closes } = setup(() => 0.5);
      conn.connect();
      factory.last.acceptOpen();
      factory.last.serverClose(code, 'too many sockets for this account (at most 16)');
      // The first retry waits as the sixth would: half of the capped ceiling (1,000), not of 100.
      expect(closes.at(-1)).toMatchObject({ code, fatal: false, retryInMs: 500 });
    }
  });

  it('close() stops everything, including a scheduled reconnect', () => {
    const { timers, factory, conn } = setup();
    conn.connect();
    factory.last.acceptOpen();
    factory.last.serverClose();
    expect(timers.size).toBe(1);
    conn.close();
    expect(timers.size).toBe(0);
    timers.advance(60_000);
    expect(factory.sockets).toHaveLength(1);
    expect(conn.state).toBe(ConnectionStatus.CLOSED);
  });

  it('send works only while open; frames and non-JSON garbage are reported', () => {
    const { factory, conn } = setup();
    const messages: unknown[] = [];
    const garbage: unknown[] = [];
    conn.on('message', (m) => messages.push(m));
    conn.on('garbage', (g) => garbage.push(g));
    conn.connect();
    expect(conn.send({ type: 'ping' })).toBe(false);
    factory.last.acceptOpen();
    expect(conn.send({ type: 'ping' })).toBe(true);
    expect(factory.last.sent).toEqual([{ type: 'ping' }]);
    factory.last.deliver({ type: 'pong', ts: 1 });
    factory.last.deliver('not json{');
    expect(messages).toEqual([{ type: 'pong', ts: 1 }]);
    expect(garbage).toEqual([{ data: 'not json{' }]);
  });

  it('pings while open and replaces a socket that went silent', () => {
    const timers = new FakeTimers();
    const factory = new FakeSocketFactory();
    const conn = new Connection({
      urls: ['ws://g1/ws'],
      socketFactory: factory.create,
      timers,
      random: () => 0,
      pingIntervalMs: 1_000,
      idleTimeoutMs: 2_500,
    });
    conn.connect();
    factory.last.acceptOpen();
    timers.advance(1_000);
    expect(factory.last.framesOfType('ping')).toHaveLength(1);
    factory.last.deliver({ type: 'pong', ts: 1 });
    timers.advance(2_000);
    expect(factory.sockets).toHaveLength(1);
    timers.advance(1_000); // 3 s since the pong
    expect(factory.sockets[0]!.closedWith).toBeDefined();
    timers.advance(0);
    expect(factory.sockets).toHaveLength(2);
  });
});
