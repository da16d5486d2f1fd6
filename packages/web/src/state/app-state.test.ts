// The page's language: from the browser until someone signs in, the account's choice after, and a
// change saved to the account (PATCH /api/me) and to this browser.
import type { LobbyMe } from '@felt/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLocale, currentLocale, LOCALE_STORAGE_KEY } from '../i18n/i18n.js';
import { AppState, type BrowserEnv } from './app-state.js';

const me = (locale: LobbyMe['locale']): LobbyMe => ({
  user: { id: '00000000-0000-4000-8000-000000000001', name: 'ann' },
  wallet: 100,
  practice_wallet: 0,
  seats: [],
  locale,
});

interface Call {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

/** The lobby as a fetch: answers /api/me with `account`, keeps what PATCH sends, logs every call. */
function fakeLobby(account: { locale: LobbyMe['locale'] } | null) {
  const calls: Call[] = [];
  let release: (() => void) | null = null;
  let holdPatch = false;
  const json = (status: number, body: unknown): Response =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path: url, body });
    if (url === '/api/auth/login')
      return json(200, { user: me(null).user, wallet: 100, expires_at: '2030-01-01T00:00:00Z' });
    if (account === null) return json(401, { error: { code: 'unauthenticated', message: 'sign in first' } });
    if (url === '/api/me' && method === 'GET') return json(200, me(account.locale));
    if (url === '/api/me' && method === 'PATCH') {
      if (holdPatch) await new Promise<void>((r) => (release = r));
      account.locale = (body as { locale: LobbyMe['locale'] }).locale;
      return json(200, me(account.locale));
    }
    return json(404, { error: { code: 'not_found', message: url } });
  });
  return {
    fetch,
    calls,
    hold: () => (holdPatch = true),
    release: () => {
      holdPatch = false;
      release?.();
    },
    signIn: () => (account = account ?? { locale: null }),
  };
}

function memoryStorage(initial: Record<string, string> = {}): BrowserEnv['storage'] & { data: Record<string, string> } {
  const data = { ...initial };
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v) };
}

beforeEach(() => applyLocale('en'));
afterEach(() => {
  vi.unstubAllGlobals();
  applyLocale('en');
});

describe('the page’s language', () => {
  it('before sign-in: this browser’s last choice, else its languages', () => {
    new AppState({ languages: ['zh-CN', 'en'], storage: memoryStorage() });
    expect(currentLocale()).toBe('zh-CN');
    new AppState({ languages: ['fr-FR'], storage: memoryStorage() });
    expect(currentLocale()).toBe('en');
    new AppState({ languages: ['en-US'], storage: memoryStorage({ [LOCALE_STORAGE_KEY]: 'zh-CN' }) });
    expect(currentLocale()).toBe('zh-CN');
    // Something that is not a language the client speaks is ignored.
    new AppState({ languages: ['en-US'], storage: memoryStorage({ [LOCALE_STORAGE_KEY]: 'klingon' }) });
    expect(currentLocale()).toBe('en');
  });

  it('after sign-in the account’s choice wins, and this browser remembers it', async () => {
    const lobby = fakeLobby({ locale: 'zh-CN' });
    vi.stubGlobal('fetch', lobby.fetch);
    const storage = memoryStorage();
    const app = new AppState({ languages: ['en-US'], storage });
    expect(currentLocale()).toBe('en');
    await app.init();
    expect(currentLocale()).toBe('zh-CN');
    expect(storage.data[LOCALE_STORAGE_KEY]).toBe('zh-CN');
    expect(lobby.calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('an account with no choice yet takes the one made on the sign-in page', async () => {
    const lobby = fakeLobby(null);
    vi.stubGlobal('fetch', lobby.fetch);
    const app = new AppState({ languages: ['en-US'], storage: memoryStorage() });
    await app.init();
    expect(app.auth.get().status).toBe('signed_out');
    await app.setLocale('zh-CN');
    expect(lobby.calls.filter((c) => c.method === 'PATCH')).toEqual([]);
    lobby.signIn();
    await app.login('ann', 'password-1');
    await vi.waitFor(() => expect(lobby.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(lobby.calls.find((c) => c.method === 'PATCH')).toMatchObject({ path: '/api/me', body: { locale: 'zh-CN' } });
    expect(currentLocale()).toBe('zh-CN');
  });

  it('a change is saved to the account and this browser; a poll answered before it does not undo it', async () => {
    const lobby = fakeLobby({ locale: 'en' });
    vi.stubGlobal('fetch', lobby.fetch);
    const storage = memoryStorage();
    const app = new AppState({ languages: ['en-US'], storage });
    await app.init();
    expect(currentLocale()).toBe('en');

    lobby.hold();
    const saving = app.setLocale('zh-CN');
    expect(currentLocale()).toBe('zh-CN');
    expect(storage.data[LOCALE_STORAGE_KEY]).toBe('zh-CN');
    // The lobby list's poll comes back with the old choice while the PATCH is on its way.
    await app.refreshMe();
    expect(currentLocale()).toBe('zh-CN');
    lobby.release();
    await saving;
    expect(currentLocale()).toBe('zh-CN');
    const auth = app.auth.get();
    expect(auth.status === 'signed_in' && auth.me.locale).toBe('zh-CN');

    // A choice made in another browser arrives with the next poll.
    await lobby.fetch('/api/me', { method: 'PATCH', body: JSON.stringify({ locale: 'en' }) });
    await app.refreshMe();
    expect(currentLocale()).toBe('en');
  });
});
