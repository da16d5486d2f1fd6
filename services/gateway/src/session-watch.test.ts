import { redisKeys, type ChannelSubscriber, type Logger, type Redis } from '@felt/platform';
import { describe, expect, it, vi } from 'vitest';
import { SessionWatch, SWEEP_CHUNK, type WatchedSocket } from './session-watch.js';

const keys = redisKeys('t:');
const logger = { warn: vi.fn() } as unknown as Logger;
const future = Date.now() / 1000 + 3600;

function rig(revoked: ReadonlySet<string> = new Set(), seq = { n: 0 }) {
  let handler: ((message: string) => void) | undefined;
  const subscriber = {
    subscribe: vi.fn((channel: string, h: (message: string) => void) => {
      expect(channel).toBe('t:sessions-revoked');
      handler = h;
      return Promise.resolve(() => Promise.resolve());
    }),
  } as unknown as ChannelSubscriber;
  const reads: number[] = [];
  const mget = vi.fn((ks: string[]) => {
    reads.push(ks.length);
    return Promise.resolve(ks.map((k) => (revoked.has(k.slice(keys.revoked('').length)) ? '1' : null)));
  });
  const redis = {
    get: vi.fn((key: string) => {
      expect(key).toBe(keys.revocationsSeq);
      return Promise.resolve(seq.n === 0 ? null : String(seq.n));
    }),
    mget,
  } as unknown as Redis;
  const ended: Array<[WatchedSocket, string]> = [];
  const watch = new SessionWatch<WatchedSocket>({
    redis,
    subscriber,
    keys,
    logger,
    sweepMs: 3_600_000,
    end: (s, reason) => {
      ended.push([s, reason]);
      watch.delete(s);
    },
  });
  const publish = (sid: string): void => handler!(`${++seq.n} ${sid}`);
  /** One check now (as the timer would run it). */
  const check = (): Promise<void> => (watch as unknown as { sweep(): Promise<void> }).sweep();
  return { watch, ended, reads, publish, check, mget };
}

const socket = (sessionId: string, expiresAt = future): WatchedSocket => ({ sessionId, expiresAt });

describe('SessionWatch', () => {
  it('counts sockets by session, several per session', () => {
    const { watch } = rig();
    const [a1, a2, b] = [socket('a'), socket('a'), socket('b')];
    for (const s of [a1, a2, b]) expect(watch.add(s)).toBe(true);
    expect(watch.size).toBe(3);
    expect([...watch.sockets()]).toEqual([a1, a2, b]);
    expect(watch.delete(a1)).toBe(true);
    expect(watch.delete(a1)).toBe(false);
    expect(watch.has(a2)).toBe(true);
    expect(watch.has(a1)).toBe(false);
    expect(watch.size).toBe(2);
  });

  it('ends every socket of a session published on the channel, and refuses one that opens just after', async () => {
    const { watch, ended, publish } = rig();
    await watch.start();
    const [a1, a2, b] = [socket('a'), socket('a'), socket('b')];
    for (const s of [a1, a2, b]) watch.add(s);
    publish('a');
    expect(ended).toEqual([
      [a1, 'session revoked'],
      [a2, 'session revoked'],
    ]);
    expect(watch.size).toBe(1);
    expect(watch.add(socket('a'))).toBe(false);
    await watch.stop();
  });

  it('a check reads only the count while no message was missed, and every session after a skipped number', async () => {
    const seq = { n: 0 };
    const { watch, ended, reads, publish, check } = rig(new Set(['b']), seq);
    await watch.start();
    watch.add(socket('a'));
    watch.add(socket('b'));
    await check(); // the first check reads everything once (nothing heard yet)
    expect(ended.map(([s]) => s.sessionId)).toEqual(['b']);
    expect(reads).toEqual([2]);
    publish('x');
    await check();
    publish('y');
    await check();
    expect(reads).toEqual([2]);
    seq.n++; // a revocation whose message this gateway never got
    await check();
    expect(reads).toEqual([2, 1]);
    await check();
    expect(reads).toEqual([2, 1]);
    seq.n++;
    publish('z'); // heard, but a number was skipped
    await check();
    expect(reads).toEqual([2, 1, 1]);
    await watch.stop();
  });

  it('a sweep that Redis failed part-way is done again at the next check', async () => {
    const { watch, reads, check, mget } = rig();
    watch.add(socket('a'));
    await check();
    expect(reads).toEqual([1]);
    watch.subscriberReconnected(); // the count is unchanged, but a message may have been lost
    mget.mockRejectedValueOnce(new Error('connection lost'));
    await check();
    await check();
    expect(reads).toEqual([1, 1]);
    expect(logger.warn).toHaveBeenCalled();
  });

  it('a sweep reads the sessions a chunk per MGET and ends the revoked and the expired ones', async () => {
    const count = SWEEP_CHUNK * 2 + 7;
    const { watch, ended, reads } = rig(new Set([`s${count - 1}`]));
    const all = Array.from({ length: count }, (_, i) => socket(`s${i}`));
    for (const s of all) watch.add(s);
    const expired = socket('old', Date.now() / 1000 - 1);
    watch.add(expired);
    watch.subscriberReconnected();
    await vi.waitFor(() => expect(ended).toHaveLength(2));
    expect(reads).toEqual([SWEEP_CHUNK, SWEEP_CHUNK, 7]);
    // The expired session is ended as the sweep passes it (no read), before the last MGET answers.
    expect(ended).toEqual([
      [expired, 'session expired'],
      [all[count - 1], 'session revoked'],
    ]);
  });
});
