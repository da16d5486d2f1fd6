import { ConfigError, parseEnv } from '@felt/platform';
import { describe, expect, it } from 'vitest';
import { lobbyEnv } from './config.js';
import { DEFAULT_LIMITS } from './limits.js';

const base = { FELT_SESSION_SECRET: 'x'.repeat(32) };

function issues(env: Record<string, string>): Record<string, string> {
  try {
    parseEnv(lobbyEnv, { ...base, ...env });
    return {};
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return Object.fromEntries(err.issues.map((i) => [i.variable, i.message]));
  }
}

describe('the abuse limits in the environment', () => {
  it('default to the documented limits', () => {
    const env = parseEnv(lobbyEnv, base);
    expect(env.FELT_TRUST_PROXY).toBe(0);
    expect(env.FELT_RATE_LIMIT_EXEMPT).toEqual(['127.0.0.0/8', '::1/128']);
    expect(env.FELT_ALLOWED_ORIGINS).toEqual([]);
    expect(env.FELT_LOGIN_FAILS_PER_NAME).toBe(DEFAULT_LIMITS.loginFailsPerName);
    expect(env.FELT_SIGNUP_GRANTS_PER_ADDRESS_PER_DAY).toBe(5);
    expect(env.FELT_MAX_OPEN_ROOMS_PER_USER).toBe(DEFAULT_LIMITS.maxOpenRoomsPerUser);
    expect(env.FELT_HASH_CONCURRENCY).toBe(2);
    expect(env.FELT_REVOCATION_CHECK_MS).toBe(5000);
  });

  it('reads each setting and refuses bad values by name', () => {
    const env = parseEnv(lobbyEnv, {
      ...base,
      FELT_TRUST_PROXY: 'true',
      FELT_RATE_LIMIT_EXEMPT: 'none',
      FELT_ALLOWED_ORIGINS: 'https://felt.example.org, http://localhost:5173',
      FELT_SIGNUP_GRANTS_PER_ADDRESS_PER_DAY: '0',
    });
    expect(env.FELT_TRUST_PROXY).toBe(1);
    expect(env.FELT_RATE_LIMIT_EXEMPT).toEqual([]);
    expect(env.FELT_ALLOWED_ORIGINS).toEqual(['https://felt.example.org', 'http://localhost:5173']);
    expect(env.FELT_SIGNUP_GRANTS_PER_ADDRESS_PER_DAY).toBe(0);
    expect(parseEnv(lobbyEnv, { ...base, FELT_TRUST_PROXY: '2' }).FELT_TRUST_PROXY).toBe(2);

    expect(
      Object.keys(
        issues({
          FELT_TRUST_PROXY: 'yes',
          FELT_RATE_LIMIT_EXEMPT: '10.0.0.0/8,localhost',
          FELT_ALLOWED_ORIGINS: 'https://felt.example.org/path',
          FELT_LOGIN_FAILS_PER_NAME: '0',
          FELT_HASH_QUEUE: '-1',
          FELT_MAX_OPEN_ROOMS_PER_USER: '1.5',
          FELT_BACKOFF_BASE_SECONDS: '0',
        }),
      ).sort(),
    ).toEqual(
      [
        'FELT_ALLOWED_ORIGINS',
        'FELT_BACKOFF_BASE_SECONDS',
        'FELT_HASH_QUEUE',
        'FELT_LOGIN_FAILS_PER_NAME',
        'FELT_MAX_OPEN_ROOMS_PER_USER',
        'FELT_RATE_LIMIT_EXEMPT',
        'FELT_TRUST_PROXY',
      ].sort(),
    );
  });
});
