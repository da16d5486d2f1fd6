import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { SESSION_COOKIE } from '@felt/protocol';
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { Accounts, AuthenticatedUser, IssuedSession } from '../accounts.js';
import type { Clock } from '../ports.js';
import type { Rooms } from '../rooms.js';
import { walletHistoryPageSchema, walletHistoryQuerySchema } from '@felt/protocol';
import type { WalletHistory } from '../wallet-history.js';
import {
  credentialsSchema,
  loggedOutEverywhereSchema,
  meSchema,
  sessionSchema,
  signedUpSchema,
  updateMeSchema,
} from '../schemas.js';
import { chips, cookieAuth, errors, json, type Env } from './http.js';

export interface AccountRoutesDeps {
  readonly accounts: Accounts;
  readonly rooms: Rooms;
  readonly walletHistory: WalletHistory;
  readonly clock: Clock;
  /** Secure attribute on the session cookie (FELT_COOKIE_SECURE). */
  readonly cookieSecure: boolean;
  /** The client address a request counts against (sign-up and log-in limits). */
  readonly addressOf: (c: Context<Env>) => string;
}

/**
 * Sign-up, log-in, log-out (here and everywhere), /api/me (read, and its settings changed) and the
 * wallet's history.
 */
export function registerAccountRoutes(app: OpenAPIHono<Env>, deps: AccountRoutesDeps): void {
  const { accounts, rooms, walletHistory, clock, addressOf } = deps;
  const setSessionCookie = (c: Context<Env>, s: IssuedSession): void => {
    setCookie(c, SESSION_COOKIE, s.token, {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: deps.cookieSecure,
      maxAge: Math.max(0, Math.floor((s.expiresAt.getTime() - clock.now().getTime()) / 1000)),
      expires: s.expiresAt,
    });
  };
  const sessionJson = (s: IssuedSession) => ({
    user: s.user,
    wallet: chips(s.wallet),
    expires_at: s.expiresAt.toISOString(),
  });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/auth/signup',
      summary: 'Create a guest account (with the sign-up grant) and sign in',
      description:
        'Each client address gets FELT_SIGNUP_GRANTS_PER_ADDRESS_PER_DAY grants a day; later sign-ups make the ' +
        'account without one (`grant: 0`, `grant_withheld: "address_daily_cap"`). Sign-ups per address are ' +
        'limited (429 with Retry-After), and when password hashing is saturated the answer is 503 busy with Retry-After.',
      request: { body: { content: { 'application/json': { schema: credentialsSchema } }, required: true } },
      responses: {
        201: json(signedUpSchema, 'Signed up; the session cookie is set'),
        ...errors(400, 403, 409, 429, 503),
      },
    }),
    async (c) => {
      const { name, password } = c.req.valid('json');
      const session = await accounts.signUp(name, password, addressOf(c));
      setSessionCookie(c, session);
      return c.json(
        { ...sessionJson(session), grant: chips(session.grant), grant_withheld: session.grantWithheld },
        201,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/auth/login',
      summary: 'Sign in',
      description:
        'Failed log-ins are limited per name and per client address, with exponential backoff (429 with ' +
        'Retry-After); a successful log-in clears its name. 503 busy with Retry-After when password hashing is saturated.',
      request: { body: { content: { 'application/json': { schema: credentialsSchema } }, required: true } },
      responses: {
        200: json(sessionSchema, 'Signed in; the session cookie is set'),
        ...errors(400, 401, 403, 429, 503),
      },
    }),
    async (c) => {
      const { name, password } = c.req.valid('json');
      const session = await accounts.logIn(name, password, addressOf(c));
      setSessionCookie(c, session);
      return c.json(sessionJson(session), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/auth/logout',
      summary: 'Sign out: revoke this session everywhere, gateways included',
      security: cookieAuth,
      responses: { 204: { description: 'Signed out; the cookie is cleared' }, ...errors(401, 403) },
    }),
    async (c) => {
      await accounts.logOut(c.get('auth'));
      deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: deps.cookieSecure });
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/auth/logout-all',
      summary: 'Sign out everywhere: revoke every session of this user, gateways included',
      description:
        "Every session's cookie stops working at once in the lobby; gateways close the user's sockets at their " +
        'next session check (GATEWAY_SESSION_CHECK_MS).',
      security: cookieAuth,
      responses: {
        200: json(loggedOutEverywhereSchema, 'Signed out everywhere; the cookie is cleared'),
        ...errors(401, 403),
      },
    }),
    async (c) => {
      const revoked = await accounts.logOutAll(c.get('auth').userId);
      deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: deps.cookieSecure });
      return c.json({ revoked }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/me',
      summary: 'The signed-in user, their wallet and their seats',
      security: cookieAuth,
      responses: { 200: json(meSchema, 'You'), ...errors(401) },
    }),
    async (c) => c.json(await meJson(c.get('auth')), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/me',
      summary: "Change the signed-in user's settings: the web client's language",
      description:
        'The language (`en` or `zh-CN`) is kept with the account, so every browser the player signs in on ' +
        'speaks it; `null` forgets the choice (the browser language decides again). Answers as `GET /api/me`.',
      security: cookieAuth,
      request: { body: { content: { 'application/json': { schema: updateMeSchema } }, required: true } },
      responses: { 200: json(meSchema, 'You, with the change kept'), ...errors(400, 401, 403) },
    }),
    async (c) => {
      const auth = c.get('auth');
      const { locale } = c.req.valid('json');
      await accounts.setLocale(auth.userId, locale);
      return c.json(await meJson({ ...auth, locale }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/wallet/history',
      summary: 'Every movement of your wallet, newest first',
      description:
        'Grants, buy-ins, top-ups, cash-outs and refunds, each with its signed amount, the wallet balance ' +
        'just after it and the room it concerns. Always the signed-in account: nothing in the request names ' +
        "another. Page with `cursor` (the previous page's `next`); a cursor this API did not give out is " +
        '400 invalid_request.',
      security: cookieAuth,
      request: { query: walletHistoryQuerySchema },
      responses: { 200: json(walletHistoryPageSchema, 'A page of wallet movements'), ...errors(400, 401) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await walletHistory.list(c.get('auth').userId, q.page_size, q.cursor), 200);
    },
  );

  async function meJson(auth: Pick<AuthenticatedUser, 'userId' | 'name' | 'locale'>) {
    const [wallet, practiceWallet, seats] = await Promise.all([
      accounts.wallet(auth.userId),
      accounts.practiceWallet(auth.userId),
      rooms.seatsOf(auth.userId),
    ]);
    return {
      user: { id: auth.userId, name: auth.name },
      wallet: chips(wallet),
      practice_wallet: chips(practiceWallet),
      seats: seats.map((s) => ({ session_id: s.roomId, code: s.code, seat: s.seat, stack: chips(s.stack) })),
      locale: auth.locale,
    };
  }
}
