import { describe, expect, it } from 'vitest';
import { SocketLimiter, SocketRefusal } from './socket-limits.js';

describe('SocketLimiter', () => {
  it('admits up to the per-user cap, counts nothing for a refused socket, and frees a slot on release', () => {
    const limiter = new SocketLimiter({ perUser: 2, perAddress: 100 });
    expect(limiter.admit('u1', 'a')).toBeNull();
    expect(limiter.admit('u1', 'b')).toBeNull();
    expect(limiter.admit('u1', 'c')).toBe(SocketRefusal.USER);
    expect(limiter.openFor('u1')).toBe(2);
    expect(limiter.openFrom('c')).toBe(0);
    // Another account is counted on its own.
    expect(limiter.admit('u2', 'a')).toBeNull();
    limiter.release('u1', 'a');
    expect(limiter.admit('u1', 'c')).toBeNull();
    expect(limiter.openFrom('a')).toBe(1);
  });

  it('admits up to the per-address cap across accounts', () => {
    const limiter = new SocketLimiter({ perUser: 10, perAddress: 3 });
    for (const u of ['u1', 'u2', 'u3']) expect(limiter.admit(u, '198.51.100.9')).toBeNull();
    expect(limiter.admit('u4', '198.51.100.9')).toBe(SocketRefusal.ADDRESS);
    expect(limiter.openFor('u4')).toBe(0);
    expect(limiter.admit('u4', '203.0.113.7')).toBeNull();
    limiter.release('u2', '198.51.100.9');
    expect(limiter.admit('u4', '198.51.100.9')).toBeNull();
  });

  it('forgets accounts and addresses with no socket left, and ignores a release it never admitted', () => {
    const limiter = new SocketLimiter({ perUser: 1, perAddress: 1 });
    expect(limiter.admit('u1', 'a')).toBeNull();
    limiter.release('u1', 'a');
    limiter.release('u1', 'a');
    expect(limiter.openFor('u1')).toBe(0);
    expect(limiter.openFrom('a')).toBe(0);
    expect(limiter.admit('u1', 'a')).toBeNull();
  });

  it('refuses caps below one', () => {
    expect(() => new SocketLimiter({ perUser: 0, perAddress: 1 })).toThrow(RangeError);
  });

  it('admits up to the gateway-wide cap, whoever asks, and frees a place on release', () => {
    const limiter = new SocketLimiter({ perUser: 10, perAddress: 10, total: 2 });
    expect(limiter.admit('u1', 'a')).toBeNull();
    expect(limiter.admit('u2', 'b')).toBeNull();
    expect(limiter.admit('u3', 'c')).toBe(SocketRefusal.GATEWAY);
    // A refused socket was never counted: releasing it changes nothing.
    limiter.release('u3', 'c');
    expect(limiter.admit('u3', 'c')).toBe(SocketRefusal.GATEWAY);
    limiter.release('u1', 'a');
    expect(limiter.admit('u3', 'c')).toBeNull();
  });
});
