import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// Test-only: the runner and the k6 bundles carry their own copy of the few shapes they use (k6 can't
// load zod), and this checks that copy against the protocol's schemas.
import { parseClientFrame, parseRoomConfig, pongSchema, serverMessageSchema } from '@felt/protocol';
import {
  LOAD_BUY_IN,
  SESSION_COOKIE,
  ServerType,
  createRoomBody,
  gatewayUrls,
  joinByCodeBody,
  joinTableFrame,
  messageHead,
  pingFrame,
  roomRef,
  sessionCookie,
} from './wire.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

describe('wire shapes', () => {
  it('sends frames the gateway accepts', () => {
    const join = joinTableFrame('0b9c5a3e-2f6d-4c1e-9a57-3c1f0e7d2b10', 'join-1');
    expect(parseClientFrame(JSON.stringify(join))).toEqual({ ok: true, frame: join });
    const ping = pingFrame('7-3');
    expect(parseClientFrame(JSON.stringify(ping))).toEqual({ ok: true, frame: ping });
  });

  it('reacts only to server message types the protocol defines', () => {
    const defined = serverMessageSchema.options.map((o) => o.shape.type.value as string);
    for (const t of Object.values(ServerType)) expect(defined).toContain(t);
  });

  it('reads the fields it needs from a schema-valid pong and error', () => {
    const pong = pongSchema.parse({ type: 'pong', nonce: '1-2', ts: 1 });
    expect(messageHead(pong)).toEqual({ type: 'pong', nonce: '1-2' });
    expect(messageHead({ type: 'error', code: 'not_member', message: 'x', table_id: 't1' })).toEqual({
      type: 'error',
      code: 'not_member',
      table_id: 't1',
    });
    expect(messageHead('pong')).toBeUndefined();
    expect(messageHead({ kind: 'pong' })).toBeUndefined();
  });

  it('uses the session cookie named in docs/dev/contracts.md', () => {
    const contracts = readFileSync(join(repoRoot, 'docs/dev/contracts.md'), 'utf8');
    const section = contracts.slice(contracts.indexOf('## Session cookie'));
    expect(/`([a-z_]+)`/.exec(section)?.[1]).toBe(SESSION_COOKIE);
    expect(sessionCookie(['other=1; Path=/', `${SESSION_COOKIE}=abc.def; HttpOnly; SameSite=Lax; Path=/`])).toBe(
      `${SESSION_COOKIE}=abc.def`,
    );
    expect(sessionCookie([`${SESSION_COOKIE}=; Max-Age=0`])).toBeUndefined();
    expect(sessionCookie([])).toBeUndefined();
  });

  it('reads session_id and code from a room response', () => {
    expect(roomRef({ session_id: 'r1', code: '123456', seats: 6 })).toEqual({ sessionId: 'r1', code: '123456' });
    expect(roomRef({ session_id: 'r1' })).toBeUndefined();
    expect(roomRef(null)).toBeUndefined();
  });

  it('creates unlisted rooms whose config the protocol accepts, with the load buy-in inside its range', () => {
    for (const seats of [2, 6, 10]) {
      const body = createRoomBody(seats) as { config: unknown; sit: { buy_in: number } };
      const config = parseRoomConfig(body.config);
      expect(config.seats).toBe(seats);
      expect(config.listed).toBe(false);
      expect(body.sit.buy_in).toBe(LOAD_BUY_IN);
      expect(LOAD_BUY_IN).toBeGreaterThanOrEqual(config.buyIn.min);
      expect(LOAD_BUY_IN).toBeLessThanOrEqual(config.buyIn.max);
    }
    expect(() => parseRoomConfig((createRoomBody(11) as { config: unknown }).config)).toThrow();
    expect(joinByCodeBody('042817')).toEqual({ code: '042817', buy_in: LOAD_BUY_IN });
  });

  it('reads gateway URLs from the lobby config response', () => {
    expect(gatewayUrls({ gateway_urls: ['ws://a:8081/ws', 'wss://b/ws'] })).toEqual(['ws://a:8081/ws', 'wss://b/ws']);
    expect(gatewayUrls({ gateway_urls: ['http://a/ws', 7] })).toBeUndefined();
    expect(gatewayUrls({ gateway_urls: [] })).toBeUndefined();
    expect(gatewayUrls({})).toBeUndefined();
  });
});
