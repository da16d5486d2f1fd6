import { describe, expect, it } from 'vitest';
import { commonEnv, ConfigError, parseEnv } from '../config/env.js';
import { parseSentinelUrl, redisAddress, RedisUrlError, sentinelOptions } from './connect.js';

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

  it('gives ioredis the Sentinels, the failover detector and a resend of a write a new replica refused', () => {
    const options = sentinelOptions(parseSentinelUrl('redis+sentinel://a:1,b:2/m')!);
    expect(options).toMatchObject({
      sentinels: [
        { host: 'a', port: 1 },
        { host: 'b', port: 2 },
      ],
      name: 'm',
      failoverDetector: true,
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

describe('REDIS_URL', () => {
  const shape = { REDIS_URL: commonEnv.REDIS_URL };
  it('takes one server or a Sentinel group, and says what it expects otherwise', () => {
    expect(parseEnv(shape, { REDIS_URL: 'redis+sentinel://a:1,b:2/felt' }).REDIS_URL).toBe(
      'redis+sentinel://a:1,b:2/felt',
    );
    expect(parseEnv(shape, { REDIS_URL: 'rediss://h:6380' }).REDIS_URL).toBe('rediss://h:6380');
    expect(parseEnv(shape, {}).REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(() => parseEnv(shape, { REDIS_URL: 'redis+sentinel://a:1' })).toThrow(/REDIS_URL: .*names the master/);
    expect(() => parseEnv(shape, { REDIS_URL: 'http://h' })).toThrow(/REDIS_URL: expected a URL like redis:\/\//);
    expect(() => parseEnv(shape, { REDIS_URL: 'not a url' })).toThrow(ConfigError);
  });
});
