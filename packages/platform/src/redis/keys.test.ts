import { describe, expect, it } from 'vitest';
import { revokedSessionKey } from '../auth/session-token.js';
import { revocationsLoadedKey, revocationsLoadingKey } from '../revocations.js';
import { bullmqPrefix, RateLimitName, redisKeys } from './keys.js';

// Keys live in a running Redis across deploys: a key that changes its spelling loses its data (a
// lease, an epoch, a revocation) without any error. Each one is pinned here, exactly.
describe('redisKeys', () => {
  const k = redisKeys('felt:');

  it('spells every key and channel as docs/dev/contracts.md lists it', () => {
    expect({
      workers: k.workers,
      worker: k.worker('w1'),
      ring: k.ring,
      table: k.table('t1'),
      user: k.user('u1'),
      tableCheckpoint: k.tableCheckpoint('t1'),
      tableEvents: k.tableEvents('t1'),
      checkpointMark: k.checkpointMark('t1'),
      lease: k.lease('t1'),
      epoch: k.epoch('t1'),
      botsOnly: k.botsOnly('t1'),
      tableOps: k.tableOps,
      roomEvents: k.roomEvents,
      revoked: k.revoked('s1'),
      sessionsRevoked: k.sessionsRevoked,
      revocationsSeq: k.revocationsSeq,
      revocationsLoaded: k.revocationsLoaded,
      revocationsLoading: k.revocationsLoading,
      rateLimit: k.rateLimit(RateLimitName.LOGIN_NAME),
      rateLimitStrikes: k.rateLimitStrikes(RateLimitName.JOIN_ADDRESS),
      persistOutcomes: k.persistOutcomes,
      persistWait: k.persistWait('r1', 7),
    }).toEqual({
      workers: 'felt:workers',
      worker: 'felt:worker:w1',
      ring: 'felt:ring',
      table: 'felt:table:t1',
      user: 'felt:user:u1',
      tableCheckpoint: 'felt:checkpoint:t1',
      tableEvents: 'felt:events:t1',
      checkpointMark: 'felt:checkpoint-mark:t1',
      lease: 'felt:lease:t1',
      epoch: 'felt:epoch:t1',
      botsOnly: 'felt:bots-only:t1',
      tableOps: 'felt:table-ops',
      roomEvents: 'felt:room-events',
      revoked: 'felt:revoked:s1',
      sessionsRevoked: 'felt:sessions-revoked',
      revocationsSeq: 'felt:revocations:seq',
      revocationsLoaded: 'felt:revocations:loaded',
      revocationsLoading: 'felt:revocations:loading',
      rateLimit: 'felt:rl:login-name',
      rateLimitStrikes: 'felt:rl:join-addr:strikes',
      persistOutcomes: 'felt:persist-outcomes',
      persistWait: 'felt:persist-wait:r1:7',
    });
  });

  it('names the lobby limits as their keys always were', () => {
    expect(Object.values(RateLimitName).map((name) => k.rateLimit(name))).toEqual([
      'felt:rl:login-name',
      'felt:rl:login-addr',
      'felt:rl:signup-addr',
      'felt:rl:join-user',
      'felt:rl:join-addr',
      'felt:rl:grants-addr',
      'felt:rl:waitlist-user',
      'felt:rl:tournament-user',
    ]);
  });

  it('prepends the prefix verbatim', () => {
    expect(redisKeys('x').lease('t')).toBe('xlease:t');
    expect(redisKeys('').ring).toBe('ring');
  });

  it('the older helpers build the same keys', () => {
    expect(revokedSessionKey('felt:', 's1')).toBe(k.revoked('s1'));
    expect(revocationsLoadedKey('felt:')).toBe(k.revocationsLoaded);
    expect(revocationsLoadingKey('felt:')).toBe(k.revocationsLoading);
  });

  it('gives BullMQ the prefix without its trailing colon', () => {
    expect(bullmqPrefix('felt:')).toBe('felt');
    expect(bullmqPrefix('t1ab:')).toBe('t1ab');
    expect(bullmqPrefix(':')).toBe('felt');
  });
});
