import { ConfigError, parseEnv } from '@felt/platform';
import { describe, expect, it } from 'vitest';
import { blindPayloadLimit, gatewayEnv } from './config.js';

const base = { FELT_SESSION_SECRET: 's'.repeat(40) };

function issues(env: Record<string, string>): string[] {
  try {
    parseEnv(gatewayEnv, { ...base, ...env });
  } catch (err) {
    if (err instanceof ConfigError) return err.issues.map((i) => `${i.variable}: ${i.message}`);
    throw err;
  }
  return [];
}

describe('gateway limits configuration', () => {
  it('defaults the socket, table, payload and proxy settings', () => {
    const env = parseEnv(gatewayEnv, base);
    expect(env).toMatchObject({
      GATEWAY_MAX_PAYLOAD: 16384,
      GATEWAY_MAX_BLIND_PAYLOAD: 163840,
      GATEWAY_MAX_SOCKETS_PER_USER: 16,
      GATEWAY_MAX_SOCKETS_PER_ADDRESS: 64,
      GATEWAY_MAX_TABLES_PER_SOCKET: 16,
      GATEWAY_TRUST_PROXY: 0,
    });
  });

  it('reads set values', () => {
    const env = parseEnv(gatewayEnv, {
      ...base,
      GATEWAY_MAX_SOCKETS_PER_USER: '3',
      GATEWAY_MAX_SOCKETS_PER_ADDRESS: '500',
      GATEWAY_MAX_TABLES_PER_SOCKET: '2',
      GATEWAY_TRUST_PROXY: '1',
      GATEWAY_MAX_PAYLOAD: '4096',
    });
    expect(env).toMatchObject({
      GATEWAY_MAX_SOCKETS_PER_USER: 3,
      GATEWAY_MAX_SOCKETS_PER_ADDRESS: 500,
      GATEWAY_MAX_TABLES_PER_SOCKET: 2,
      GATEWAY_TRUST_PROXY: 1,
      GATEWAY_MAX_PAYLOAD: 4096,
    });
  });

  it('names the variable of every bad value', () => {
    expect(issues({ GATEWAY_MAX_SOCKETS_PER_USER: '0' })).toEqual([
      'GATEWAY_MAX_SOCKETS_PER_USER: expected a positive integer',
    ]);
    expect(issues({ GATEWAY_MAX_SOCKETS_PER_ADDRESS: 'lots' })).toEqual([
      'GATEWAY_MAX_SOCKETS_PER_ADDRESS: expected a number',
    ]);
    expect(issues({ GATEWAY_MAX_TABLES_PER_SOCKET: '1.5' })).toEqual([
      'GATEWAY_MAX_TABLES_PER_SOCKET: expected an integer',
    ]);
    expect(issues({ GATEWAY_MAX_TABLES_PER_SOCKET: '100000' })).toEqual([
      'GATEWAY_MAX_TABLES_PER_SOCKET: expected a positive integer up to 1000',
    ]);
    expect(issues({ GATEWAY_MAX_PAYLOAD: '2000000' })).toEqual([
      'GATEWAY_MAX_PAYLOAD: expected a positive integer up to 1048576',
    ]);
    expect(issues({ GATEWAY_MAX_BLIND_PAYLOAD: '1048577' })).toEqual([
      'GATEWAY_MAX_BLIND_PAYLOAD: expected a positive integer up to 1048576',
    ]);
    expect(issues({ GATEWAY_MAX_BLIND_PAYLOAD: '0' })).toEqual([
      'GATEWAY_MAX_BLIND_PAYLOAD: expected a positive integer',
    ]);
    expect(issues({ GATEWAY_TRUST_PROXY: 'true' })).toEqual([
      'GATEWAY_TRUST_PROXY: expected the number of trusted proxies in front of the gateway (0 for none)',
    ]);
    expect(issues({ GATEWAY_TRUST_PROXY: '-1' })).toEqual([
      'GATEWAY_TRUST_PROXY: expected the number of trusted proxies in front of the gateway (0 for none)',
    ]);
  });

  it('takes the blind_shuffle limit as GATEWAY_MAX_PAYLOAD when it is set lower', () => {
    expect(blindPayloadLimit(parseEnv(gatewayEnv, base))).toBe(163840);
    const at = (payload: string, blind: string) =>
      blindPayloadLimit(
        parseEnv(gatewayEnv, { ...base, GATEWAY_MAX_PAYLOAD: payload, GATEWAY_MAX_BLIND_PAYLOAD: blind }),
      );
    expect(at('16384', '200000')).toBe(200000);
    expect(at('262144', '131072')).toBe(262144);
    expect(at('1048576', '1024')).toBe(1048576);
  });
});
