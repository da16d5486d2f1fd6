import { describe, expect, it } from 'vitest';
import { revokedSessionKey } from '../auth/session-token.js';
import { revocationsLoadedKey, revocationsLoadingKey } from '../revocations.js';
import { bullmqPrefix, idInKey, layoutOneKeys, RateLimitName, redisKeys } from './keys.js';

// Keys live in a running Redis across deploys: a key that changes its spelling loses its data (a
// lease, an epoch, a revocation) without any error. Each one is pinned here, exactly, and a change of
// spelling is a new layout (REDIS_LAYOUT) with its move in layoutOneKeys.
describe('redisKeys', () => {
  const k = redisKeys('felt:');

  it('spells every key and channel as docs/dev/contracts.md lists it', () => {
    expect({
      workers: k.workers,
      worker: k.worker('w1'),
      ring: k.ring,
      table: k.table('t1'),
      userAtTable: k.userAtTable('t1', 'u1'),
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
      lobbyFeed: k.lobbyFeed,
      lobbyFeedRooms: k.lobbyFeedRooms,
      lobbyFeedLock: k.lobbyFeedLock,
      lobbyFeedWatchers: k.lobbyFeedWatchers,
      lobbyFeedWallets: k.lobbyFeedWallets,
      wallet: k.wallet('u1'),
      auditLock: k.auditLock,
      auditLast: k.auditLast,
      layout: k.layout,
    }).toEqual({
      workers: 'felt:{workers}:live',
      worker: 'felt:{workers}:worker:w1',
      ring: 'felt:ring',
      table: 'felt:{table:t1}:channel',
      userAtTable: 'felt:{table:t1}:user:u1',
      tableCheckpoint: 'felt:{table:t1}:checkpoint',
      tableEvents: 'felt:{table:t1}:events',
      checkpointMark: 'felt:{table:t1}:checkpoint-mark',
      lease: 'felt:{table:t1}:lease',
      epoch: 'felt:{table:t1}:epoch',
      botsOnly: 'felt:{table:t1}:bots-only',
      tableOps: 'felt:table-ops',
      roomEvents: 'felt:room-events',
      revoked: 'felt:{revocations}:revoked:s1',
      sessionsRevoked: 'felt:sessions-revoked',
      revocationsSeq: 'felt:{revocations}:seq',
      revocationsLoaded: 'felt:{revocations}:loaded',
      revocationsLoading: 'felt:{revocations}:loading',
      rateLimit: 'felt:rl:login-name',
      rateLimitStrikes: 'felt:rl:join-addr:strikes',
      persistOutcomes: 'felt:persist-outcomes',
      persistWait: 'felt:persist-wait:r1:7',
      lobbyFeed: 'felt:lobby-feed',
      lobbyFeedRooms: 'felt:{lobby-feed}:rooms',
      lobbyFeedLock: 'felt:{lobby-feed}:lock',
      lobbyFeedWatchers: 'felt:{lobby-feed}:watchers',
      lobbyFeedWallets: 'felt:{lobby-feed}:wallets',
      wallet: 'felt:wallet:u1',
      auditLock: 'felt:audit:lock',
      auditLast: 'felt:audit:last',
      layout: 'felt:layout',
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
    expect(redisKeys('x').lease('t')).toBe('x{table:t}:lease');
    expect(redisKeys('').ring).toBe('ring');
  });

  it('the older helpers build the same keys', () => {
    expect(revokedSessionKey('felt:', 's1')).toBe(k.revoked('s1'));
    expect(revocationsLoadedKey('felt:')).toBe(k.revocationsLoaded);
    expect(revocationsLoadingKey('felt:')).toBe(k.revocationsLoading);
  });

  it('puts every key a script touches with another under one hash tag', () => {
    // The slot of a key is the hash of its first {…}: each group below must share one tag.
    const tag = (key: string): string | undefined => /\{([^}]*)\}/.exec(key)?.[1];
    const groups = [
      [
        k.tableCheckpoint('t1'),
        k.tableEvents('t1'),
        k.checkpointMark('t1'),
        k.lease('t1'),
        k.epoch('t1'),
        k.table('t1'),
        k.userAtTable('t1', 'u1'),
      ],
      [k.workers, k.worker('w1')],
      [k.lobbyFeedRooms, k.lobbyFeedLock, k.lobbyFeedWatchers, k.lobbyFeedWallets],
      [k.revoked('s1'), k.revocationsSeq, k.revocationsLoaded, k.revocationsLoading],
    ];
    for (const group of groups) {
      expect(group.map(tag).every((t) => t !== undefined && t === tag(group[0]!))).toBe(true);
    }
    expect(tag(k.epoch('tournament:x'))).toBe('table:tournament:x');
  });

  it('moves every layout-1 key to a key of this layout, and reads ids back from keys', () => {
    const old = layoutOneKeys('felt:');
    expect(old.tableKinds.map((kind) => [kind.old, kind.to('t1')])).toEqual([
      ['felt:epoch:', 'felt:{table:t1}:epoch'],
      ['felt:lease:', 'felt:{table:t1}:lease'],
      ['felt:checkpoint:', 'felt:{table:t1}:checkpoint'],
      ['felt:events:', 'felt:{table:t1}:events'],
      ['felt:checkpoint-mark:', 'felt:{table:t1}:checkpoint-mark'],
      ['felt:bots-only:', 'felt:{table:t1}:bots-only'],
    ]);
    expect(old.workers).toBe('felt:workers');
    expect(old.fixed.map((f) => f.to)).toEqual([
      k.workers,
      k.revocationsSeq,
      k.revocationsLoaded,
      k.revocationsLoading,
      k.lobbyFeedRooms,
      k.lobbyFeedLock,
      k.lobbyFeedWatchers,
      k.lobbyFeedWallets,
    ]);
    expect(idInKey(k.botsOnly, 'felt:{table:abc-1}:bots-only')).toBe('abc-1');
    expect(idInKey(k.botsOnly, 'felt:{table:tournament:t}:bots-only')).toBe('tournament:t');
    expect(idInKey(k.botsOnly, 'felt:{table:abc}:lease')).toBeNull();
    expect(idInKey(k.botsOnly, 'other:{table:abc}:bots-only')).toBeNull();
  });

  it('gives BullMQ the prefix without its trailing colon', () => {
    expect(bullmqPrefix('felt:')).toBe('felt');
    expect(bullmqPrefix('t1ab:')).toBe('t1ab');
    expect(bullmqPrefix(':')).toBe('felt');
  });
});
