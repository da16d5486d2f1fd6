import { SESSION_COOKIE } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { LobbyApiError, LobbyClient } from './lobby-client.js';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

function fakeFetch(responses: ((call: Call) => Response)[]): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const impl = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const call: Call = {
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const next = responses.shift();
    if (!next) throw new Error('unexpected request');
    return Promise.resolve(next(call));
  };
  return { fetch: impl, calls };
}

function json(status: number, body: unknown, headers: [string, string][] = []): Response {
  const h = new Headers([['content-type', 'application/json']]);
  for (const [k, v] of headers) h.append(k, v);
  return new Response(JSON.stringify(body), { status, headers: h });
}

describe('LobbyClient', () => {
  it('keeps the session cookie from sign-up and sends it afterwards; logout forgets it', async () => {
    const { fetch, calls } = fakeFetch([
      () =>
        json(201, { user: { id: 'u1', name: 'ann' }, wallet: 10_000, expires_at: '2030-01-01T00:00:00.000Z' }, [
          ['set-cookie', 'felt_session=abc.def; Path=/; HttpOnly; SameSite=Lax'],
        ]),
      () => json(200, { user: { id: 'u1', name: 'ann' }, wallet: 9_800, seats: [] }),
      () =>
        new Response(null, {
          status: 204,
          headers: [['set-cookie', 'felt_session=; Max-Age=0; Path=/']],
        }),
    ]);
    const lobby = new LobbyClient({ baseUrl: 'http://lobby', fetch });
    await lobby.signup('ann', 'password1');
    expect(lobby.cookie).toBe('felt_session=abc.def');
    expect((await lobby.me()).wallet).toBe(9_800);
    expect(calls[1]!.headers.cookie).toBe('felt_session=abc.def');
    await lobby.logout();
    expect(lobby.cookie).toBeUndefined();
  });

  it('turns an API error into LobbyApiError with its stable code, and sends idempotency keys', async () => {
    const { fetch, calls } = fakeFetch([
      () => json(409, { error: { code: 'seat_taken', message: 'seat 3 is taken' } }),
      () => new Response('<html>oops</html>', { status: 502 }),
    ]);
    const lobby = new LobbyClient({ baseUrl: 'http://lobby', fetch, cookie: 'felt_session=x' });
    const err = await lobby.joinByCode('123456', { seat: 3, buy_in: 200 }, 'key-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LobbyApiError);
    expect(err).toMatchObject({ status: 409, code: 'seat_taken' });
    expect(calls[0]).toMatchObject({
      url: 'http://lobby/api/rooms/join',
      method: 'POST',
      body: { code: '123456', seat: 3, buy_in: 200 },
      headers: { 'idempotency-key': 'key-1', cookie: 'felt_session=x' },
    });
    await expect(lobby.listRooms()).rejects.toMatchObject({ code: 'bad_response', status: 502 });
  });

  it('keeps the account’s language with PATCH /api/me', async () => {
    const me = { user: { id: 'u1', name: 'ann' }, wallet: 10, seats: [], locale: 'zh-CN' };
    const { fetch, calls } = fakeFetch([() => json(200, me)]);
    const lobby = new LobbyClient({ baseUrl: 'http://lobby', fetch, cookie: 'felt_session=x' });
    expect(await lobby.updateMe({ locale: 'zh-CN' })).toEqual(me);
    expect(calls[0]).toMatchObject({
      url: 'http://lobby/api/me',
      method: 'PATCH',
      body: { locale: 'zh-CN' },
      headers: { 'content-type': 'application/json' },
    });
  });

  it('reads the hand history and creates rooms on the contract’s routes', async () => {
    const page = { hands: [], next: null };
    const { fetch, calls } = fakeFetch([
      () => json(200, page),
      () => json(200, page),
      () => json(200, { hand_id: 'h/1' }),
      () => json(201, { session_id: 'r1', code: '042817' }),
    ]);
    const lobby = new LobbyClient({ baseUrl: 'http://lobby', fetch });
    expect(await lobby.hands()).toEqual(page);
    await lobby.hands({ pageSize: 20, cursor: 'abc' });
    await lobby.hand('h/1');
    await lobby.createRoom({ config: { game: 'stud' }, sit: { buy_in: 100 } }, 'key-2');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET http://lobby/api/hands',
      'GET http://lobby/api/hands?page_size=20&cursor=abc',
      'GET http://lobby/api/hands/h%2F1',
      'POST http://lobby/api/rooms',
    ]);
    expect(calls[3]).toMatchObject({
      body: { config: { game: 'stud' }, sit: { buy_in: 100 } },
      headers: { 'idempotency-key': 'key-2' },
    });
  });

  it('keeps the session cookie the contract names, and no other', async () => {
    const { fetch } = fakeFetch([
      () =>
        json(200, {}, [
          ['set-cookie', 'other=1; Path=/'],
          ['set-cookie', `${SESSION_COOKIE}=tok; Path=/; HttpOnly`],
        ]),
    ]);
    const lobby = new LobbyClient({ baseUrl: 'http://lobby', fetch });
    await lobby.login('ann', 'password1');
    expect(lobby.cookie).toBe(`${SESSION_COOKIE}=tok`);
  });
});
