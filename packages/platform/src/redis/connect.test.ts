import { describe, expect, it } from 'vitest';
import { commonEnv, ConfigError, parseEnv } from '../config/env.js';
import {
  clusterOptions,
  createRedis,
  parseClusterUrl,
  parseSentinelUrl,
  redisAddress,
  redisNodes,
  RedisUrlError,
  sentinelOptions,
} from './connect.js';

describe('parseSentinelUrl', () => {
  it('reads the Sentinels, the master, the data nodes’ credentials and the query', () => {
    expect(
      parseSentinelUrl(
        'redis+sentinel://felt:p%40ss@10.0.0.1:26380,sentinel-b,[::1]:26381/mymaster?db=2&sentinelPassword=s%20p',
      ),
    ).toEqual({
      sentinels: [
        { host: '10.0.0.1', port: 26380 },
        { host: 'sentinel-b', port: 26379 },
        { host: '::1', port: 26381 },
      ],
      name: 'mymaster',
      username: 'felt',
      password: 'p@ss',
      db: 2,
      sentinelPassword: 's p',
    });
    expect(parseSentinelUrl('redis+sentinel://:secret@h:1/m')).toEqual({
      sentinels: [{ host: 'h', port: 1 }],
      name: 'm',
      password: 'secret',
    });
  });

  it('is undefined for one server’s URL', () => {
    expect(parseSentinelUrl('redis://127.0.0.1:6379')).toBeUndefined();
    expect(parseSentinelUrl('rediss://u:p@h:6380/1')).toBeUndefined();
  });

  it.each([
    ['redis+sentinel://h:26379', /names the master/],
    ['redis+sentinel://h:26379/', /master's name/],
    ['redis+sentinel://h:26379/bad name', /master's name/],
    ['redis+sentinel://h:99999/m', /host\[:port\]/],
    ['redis+sentinel://h:1,,g:2/m', /host\[:port\]/],
    ['redis+sentinel://h:x/m', /host\[:port\]/],
    ['redis+sentinel://h/m?db=16', /db is a number/],
    ['redis+sentinel://h/m?tls=1', /not "tls"/],
  ])('refuses %s with a message that says why', (url, message) => {
    expect(() => parseSentinelUrl(url)).toThrow(RedisUrlError);
    expect(() => parseSentinelUrl(url)).toThrow(message);
  });

  it('gives ioredis the Sentinels and a resend of a write a new replica refused; its failover detector stays off', () => {
    const options = sentinelOptions(parseSentinelUrl('redis+sentinel://a:1,b:2/m')!);
    expect(options).toMatchObject({
      sentinels: [
        { host: 'a', port: 1 },
        { host: 'b', port: 2 },
      ],
      name: 'm',
      // Its +switch-master handling ends a reconnecting client for good: sentinel-watch.ts does it.
      failoverDetector: false,
    });
    const reconnect = options.reconnectOnError as (err: Error) => boolean | 1 | 2;
    expect(reconnect(new Error("READONLY You can't write against a read only replica."))).toBe(2);
    expect(reconnect(new Error('ERR wrong number of arguments'))).toBe(false);
  });

  it('names the Sentinels, never a password, in messages', () => {
    expect(redisAddress('redis+sentinel://u:secret@a:1,b/m')).toBe('m via sentinels a:1,b:26379');
    expect(redisAddress('redis://:secret@127.0.0.1:6390')).toBe('127.0.0.1:6390');
  });
});

describe('parseClusterUrl', () => {
  it('reads the nodes, the credentials and TLS', () => {
    expect(parseClusterUrl('redis+cluster://felt:p%40ss@10.0.0.1:7000,node-b,[::1]:7002')).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'node-b', port: 6379 },
        { host: '::1', port: 7002 },
      ],
      username: 'felt',
      password: 'p@ss',
      tls: false,
    });
    expect(parseClusterUrl('rediss+cluster://:secret@h:1/')).toEqual({
      nodes: [{ host: 'h', port: 1 }],
      password: 'secret',
      tls: true,
    });
    expect(parseClusterUrl('redis://h:1')).toBeUndefined();
    expect(parseClusterUrl('redis+sentinel://h:1/m')).toBeUndefined();
  });

  it('refuses a path, a query, or a node that is not host[:port], saying which', () => {
    expect(() => parseClusterUrl('redis+cluster://h:1/0')).toThrow(RedisUrlError);
    expect(() => parseClusterUrl('redis+cluster://h:1?db=1')).toThrow(/only its nodes/);
    expect(() => parseClusterUrl('redis+cluster://h:1,,h:2')).toThrow(/"" is not/);
    expect(() => parseClusterUrl('redis+cluster://h:99999')).toThrow(/"h:99999" is not/);
  });

  it('gives ioredis the credentials per node, no auto-pipelining (MOVED after a failover) and reads from masters', () => {
    const target = parseClusterUrl('rediss+cluster://u:p@h:1')!;
    const options = clusterOptions(target, { connectionName: 'x', maxRetriesPerRequest: 2 });
    expect(options).toMatchObject({
      enableAutoPipelining: false,
      scaleReads: 'master',
      redisOptions: { connectionName: 'x', maxRetriesPerRequest: 2, username: 'u', password: 'p', tls: {} },
    });
  });

  it('makes a cluster client for a cluster URL, and walks its masters for SCAN', () => {
    const client = createRedis('redis+cluster://127.0.0.1:1', { name: 't' }, { lazyConnect: true });
    const single = createRedis('redis://127.0.0.1:1', { name: 't' }, { lazyConnect: true });
    try {
      expect(client.isCluster).toBe(true);
      expect(single.isCluster).toBe(false);
      expect(redisNodes(single)).toEqual([single]);
      // No slot map read yet: no masters known.
      expect(redisNodes(client)).toEqual([]);
    } finally {
      client.disconnect();
      single.disconnect();
    }
  });

  it('names the nodes, never a password, in messages', () => {
    expect(redisAddress('redis+cluster://u:secret@a:1,b')).toBe('a cluster via a:1,b:6379');
  });
});

describe('REDIS_URL', () => {
  const shape = { REDIS_URL: commonEnv.REDIS_URL };
  it('takes one server, a Sentinel group or a cluster, and says what it expects otherwise', () => {
    expect(parseEnv(shape, { REDIS_URL: 'redis+sentinel://a:1,b:2/felt' }).REDIS_URL).toBe(
      'redis+sentinel://a:1,b:2/felt',
    );
    expect(parseEnv(shape, { REDIS_URL: 'rediss://h:6380' }).REDIS_URL).toBe('rediss://h:6380');
    expect(parseEnv(shape, { REDIS_URL: 'redis+cluster://a:7000,b:7001' }).REDIS_URL).toBe(
      'redis+cluster://a:7000,b:7001',
    );
    expect(() => parseEnv(shape, { REDIS_URL: 'redis+cluster://a:7000/1' })).toThrow(/REDIS_URL: .*only its nodes/);
    expect(parseEnv(shape, {}).REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(() => parseEnv(shape, { REDIS_URL: 'redis+sentinel://a:1' })).toThrow(/REDIS_URL: .*names the master/);
    expect(() => parseEnv(shape, { REDIS_URL: 'http://h' })).toThrow(/REDIS_URL: expected a URL like redis:\/\//);
    expect(() => parseEnv(shape, { REDIS_URL: 'not a url' })).toThrow(ConfigError);
  });
});
