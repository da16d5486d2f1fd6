import { createRoute, OpenAPIHono, type z } from '@hono/zod-openapi';
import type { PrismaClient } from '@felt/db';
import { createMetricsRegistry, debugSpans, readCookie, type Logger, type Redis, type Registry } from '@felt/platform';
import { SESSION_COOKIE, stakesLabel, type RoomConfigInput } from '@felt/protocol';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, setCookie } from 'hono/cookie';
import { HTTPException } from 'hono/http-exception';
import { matchedRoutes, routePath } from 'hono/route';
import { Counter, Histogram } from 'prom-client';
import { Accounts, type AuthenticatedUser, type IssuedSession } from './accounts.js';
import { AddressPolicy } from './client-address.js';
import { ApiErrorCode, LobbyError, type ApiErrorStatus } from './errors.js';
import { HashQueue } from './hash-queue.js';
import { homePage } from './home-page.js';
import { DEFAULT_LIMITS, type LobbyLimits } from './limits.js';
import { hasWebClient, mountWebClient, webRouteLabel } from './web-static.js';
import type { ScryptParams } from './passwords.js';
import { systemClock, type Clock, type RevocationList, type RoomEventPublisher } from './ports.js';
import { RedisRevocationList, RedisRoomEventPublisher } from './redis-adapters.js';
import { RevocationSync } from './revocation-sync.js';
import { History } from './history.js';
import { CashOutMode, Rooms, type RoomMember, type RoomSummary, type SeatResult } from './rooms.js';
import { originCheck, securityHeaders } from './security.js';
import { Throttles } from './throttle.js';
import {
  clientConfigSchema,
  closedSchema,
  createdRoomSchema,
  createRoomSchema,
  credentialsSchema,
  handDetailSchema,
  handIdParamSchema,
  historyPageSchema,
  historyQuerySchema,
  idempotencyHeaderSchema,
  joinByCodeSchema,
  joinedSchema,
  leftSchema,
  listQuerySchema,
  lobbyErrorSchema,
  loggedOutEverywhereSchema,
  meSchema,
  ohhResponseSchema,
  phhResponseSchema,
  quickJoinSchema,
  revealResponseSchema,
  roomDetailSchema,
  roomIdParamSchema,
  roomListSchema,
  sessionSchema,
  signedUpSchema,
  topUpRequestSchema,
  topUpSchema,
} from './schemas.js';

/** What the lobby needs from outside; tests pass a test database and a random Redis prefix. */
export interface LobbyDeps {
  readonly prisma: PrismaClient;
  readonly redis: Redis;
  /** FELT_REDIS_PREFIX. */
  readonly redisPrefix: string;
  readonly sessionSecret: string;
  /** Secure attribute on the session cookie (FELT_COOKIE_SECURE). */
  readonly cookieSecure: boolean;
  /** FELT_SIGNUP_GRANT. */
  readonly signupGrant: number;
  /** FELT_GATEWAY_URLS. */
  readonly gatewayUrls: readonly string[];
  readonly logger: Logger;
  readonly metrics?: Registry;
  /** Seven days unless set. */
  readonly sessionTtlSeconds?: number;
  /** Cheaper hashing for tests; production uses the default. */
  readonly scrypt?: ScryptParams;
  readonly clock?: Clock;
  /** Defaults to Redis (`P room-events`). */
  readonly events?: RoomEventPublisher;
  /** Defaults to Redis (`P revoked:<sid>`). */
  readonly revocations?: RevocationList;
  /** Largest request body accepted. Default 64 KiB. */
  readonly maxBodyBytes?: number;
  /** FELT_CASH_OUT_MODE (docs/dev/money-flows.md). Default ledger. */
  readonly cashOutMode?: CashOutMode;
  /** The built web client to serve at `/` (FELT_WEB_DIST); without one, `/` is a plain home page. */
  readonly webDist?: string;
  /** Abuse limits (docs/operations.md, "Security"); each one left out takes its default. */
  readonly limits?: Partial<LobbyLimits>;
  /** FELT_TRUST_PROXY: how many proxies in front of the lobby append to X-Forwarded-For. Default 0. */
  readonly trustProxyHops?: number;
  /** FELT_ALLOWED_ORIGINS: origins besides the lobby's own whose pages may change state. */
  readonly allowedOrigins?: readonly string[];
  /** FELT_REVOCATION_CHECK_MS: how often the revocation sync checks Redis. Default 5 s. */
  readonly revocationCheckMs?: number;
}

export interface LobbyApp {
  readonly app: OpenAPIHono<Env>;
  /** Served on LOBBY_OPS_PORT only: /healthz, /readyz, /metrics, /debug/spans. */
  readonly ops: Hono;
  readonly rooms: Rooms;
  readonly history: History;
  readonly accounts: Accounts;
  readonly metrics: Registry;
  /** Keeps the gateways' revocation keys complete; main starts it. */
  readonly revocationSync: RevocationSync;
}

/**
 * What the Node server passes each request (@hono/node-server); absent when a test calls
 * `app.request()` without it.
 */
export interface NodeBindings {
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string | undefined } };
}

type Env = { Bindings: NodeBindings; Variables: { auth: AuthenticatedUser } };

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

const errors = (...codes: Exclude<ApiErrorStatus, 500>[]) =>
  Object.fromEntries(codes.map((code) => [code, json(lobbyErrorSchema, 'Refused; `error.code` says why')])) as Record<
    number,
    ReturnType<typeof json<typeof lobbyErrorSchema>>
  >;

const cookieAuth = [{ cookieAuth: [] }];

function chips(n: bigint): number {
  return Number(n);
}

function summaryJson(r: RoomSummary) {
  return {
    session_id: r.id,
    code: r.code,
    status: r.status,
    game: r.config.game,
    limit: r.config.limit,
    stakes: stakesLabel(r.config),
    seats: r.config.seats,
    players: r.players,
    buy_in: { min: r.config.buyIn.min, max: r.config.buyIn.max },
    listed: r.config.listed,
    host_id: r.hostId,
    created_at: r.createdAt.toISOString(),
  };
}

function detailJson(r: RoomSummary, members: readonly RoomMember[]) {
  return {
    ...summaryJson(r),
    // The resolved config is a valid input too (it parses back to itself); the API documents it so.
    config: r.config as RoomConfigInput,
    members: members.map((m) => ({ user_id: m.userId, name: m.name, seat: m.seat, stack: chips(m.stack) })),
  };
}

function joinedJson(s: SeatResult) {
  return {
    session_id: s.roomId,
    code: s.code,
    seat: s.seat,
    stack: chips(s.stack),
    wallet: chips(s.wallet),
    replayed: s.replayed,
  };
}

function errorBody(code: ApiErrorCode, message: string, details?: Readonly<Record<string, unknown>>) {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/** A short, safe summary of zod issues: paths and messages, never the input. */
function describeIssues(error: z.ZodError): { message: string; issues: { path: string; message: string }[] } {
  const issues = error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  return {
    message: issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '),
    issues,
  };
}

/**
 * The lobby's HTTP API as a Hono app, without a listening socket: `main.ts` serves it, and tests
 * call `app.request()` against a test database and a random Redis prefix.
 */
export function createLobbyApp(deps: LobbyDeps): LobbyApp {
  const clock = deps.clock ?? systemClock;
  const metrics = deps.metrics ?? createMetricsRegistry('lobby');
  const events = deps.events ?? new RedisRoomEventPublisher(deps.redis, deps.redisPrefix);
  const redisRevocations = new RedisRevocationList(deps.redis, deps.redisPrefix);
  const revocations = deps.revocations ?? redisRevocations;
  const sessionTtlSeconds = deps.sessionTtlSeconds ?? 7 * 24 * 3600;
  const log = deps.logger;
  const limits: LobbyLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const addresses = new AddressPolicy(deps.trustProxyHops ?? 0, limits.exempt);
  const throttles = new Throttles(deps.redis, deps.redisPrefix, limits, addresses);
  const hashes = new HashQueue(limits.hashConcurrency, limits.hashQueue);
  const addressOf = (c: Context<Env>): string => {
    // Undefined when a test calls app.request() without bindings.
    const bindings = c.env as NodeBindings | undefined;
    return addresses.clientAddress(bindings?.incoming?.socket?.remoteAddress, c.req.header('x-forwarded-for'));
  };

  const requests = new Counter({
    name: 'felt_lobby_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [metrics],
  });
  const latency = new Histogram({
    name: 'felt_lobby_http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metrics],
  });
  const published = new Counter({
    name: 'felt_lobby_room_events_total',
    help: 'Room events published on room-events, by type and outcome',
    labelNames: ['type', 'outcome'],
    registers: [metrics],
  });

  const accounts = new Accounts({
    prisma: deps.prisma,
    revocations,
    clock,
    sessionSecret: deps.sessionSecret,
    sessionTtlSeconds,
    signupGrant: BigInt(deps.signupGrant),
    guard: throttles,
    hashes,
    ...(deps.scrypt ? { scrypt: deps.scrypt } : {}),
  });
  const rooms = new Rooms({
    prisma: deps.prisma,
    cashOutMode: deps.cashOutMode ?? CashOutMode.LEDGER,
    events,
    clock,
    logger: log,
    onPublish: (event, ok) => published.inc({ type: event.type, outcome: ok ? 'published' : 'failed' }),
    maxOpenRoomsPerUser: limits.maxOpenRoomsPerUser,
    joinGuard: throttles,
  });
  const revocationSync = new RevocationSync({
    prisma: deps.prisma,
    redis: deps.redis,
    prefix: deps.redisPrefix,
    revocations: redisRevocations,
    logger: log,
    intervalMs: deps.revocationCheckMs ?? 5_000,
  });

  const history = new History(deps.prisma);

  const app = new OpenAPIHono<Env>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const { message, issues } = describeIssues(result.error);
        return c.json(errorBody(ApiErrorCode.INVALID_REQUEST, message, { issues }), 400);
      }
      return undefined;
    },
  });

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    // The route that answered: the web client's files are `web`; otherwise the last API route that
    // matched (an auth middleware's 401 is labelled with the endpoint it guarded).
    const routes = matchedRoutes(c as Context);
    const route =
      webRouteLabel(routes[c.req.routeIndex]?.handler) ??
      [...routes].reverse().find((r) => webRouteLabel(r.handler) === undefined)?.path ??
      '*';
    const labels = {
      method: c.req.method,
      route: route === '*' || route === '/*' ? 'unmatched' : route,
      status: String(c.res.status),
    };
    requests.inc(labels);
    latency.observe(labels, (performance.now() - started) / 1000);
    if (!/^\/(metrics|healthz|readyz)$/.test(c.req.path)) {
      log.info(
        { event: 'http_request', ...labels, ms: Math.round(performance.now() - started) },
        `${c.req.method} ${labels.route} ${labels.status}`,
      );
    }
  });

  app.use('*', securityHeaders({ gatewayUrls: deps.gatewayUrls, https: deps.cookieSecure }));
  app.use('/api/*', originCheck({ allowedOrigins: deps.allowedOrigins ?? [] }));

  app.use(
    '/api/*',
    bodyLimit({
      maxSize: deps.maxBodyBytes ?? 64 * 1024,
      onError: (c) => c.json(errorBody(ApiErrorCode.PAYLOAD_TOO_LARGE, 'the request body is too large'), 413),
    }),
  );

  const requireAuth: MiddlewareHandler<Env> = async (c, next) => {
    c.set('auth', await accounts.authenticate(readCookie(c.req.header('cookie'), SESSION_COOKIE)));
    await next();
  };
  app.use('/api/me', requireAuth);
  app.use('/api/auth/logout', requireAuth);
  app.use('/api/auth/logout-all', requireAuth);
  // Also matches /api/rooms itself.
  app.use('/api/rooms/*', requireAuth);
  // Also matches /api/hands itself.
  app.use('/api/hands/*', requireAuth);

  app.onError((err, c) => {
    if (err instanceof LobbyError) {
      if (err.retryAfterSeconds !== undefined) c.header('Retry-After', String(err.retryAfterSeconds));
      return c.json(errorBody(err.code, err.message, err.details), err.status);
    }
    if (err instanceof HTTPException) {
      // Hono's own refusals: a body that isn't JSON (400), a missing Content-Type (415).
      if (err.status === 415) {
        return c.json(errorBody(ApiErrorCode.UNSUPPORTED_MEDIA_TYPE, 'send the body as application/json'), 415);
      }
      if (err.status === 413)
        return c.json(errorBody(ApiErrorCode.PAYLOAD_TOO_LARGE, 'the request body is too large'), 413);
      if (err.status >= 400 && err.status < 500) {
        return c.json(errorBody(ApiErrorCode.INVALID_REQUEST, 'the request body is not valid JSON'), 400);
      }
    }
    log.error({ event: 'http_error', err, route: routePath(c as Context, -1) }, 'request failed');
    return c.json(errorBody(ApiErrorCode.INTERNAL, 'the server failed; nothing was changed'), 500);
  });

  app.notFound((c) => c.json(errorBody(ApiErrorCode.NOT_FOUND, `no route for ${c.req.method} ${c.req.path}`), 404));

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

  app.openAPIRegistry.registerComponent('securitySchemes', 'cookieAuth', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The session cookie set by sign-up and login (HttpOnly, SameSite=Lax)',
  });

  // ---- operations -----------------------------------------------------------------------------

  const serveWeb = deps.webDist !== undefined && hasWebClient(deps.webDist);
  if (!serveWeb) app.get('/', (c) => c.html(homePage()));
  app.get('/healthz', (c) => c.json({ ok: true }));
  // Readiness, metrics and debug captures are on the operations port (LOBBY_OPS_PORT). Here they are
  // 404, never the web client's page: a probe or scrape aimed at the public port must fail loudly.
  for (const path of ['/readyz', '/metrics', '/debug/*']) {
    app.get(path, (c) =>
      c.json(errorBody(ApiErrorCode.NOT_FOUND, 'served on the operations port (LOBBY_OPS_PORT)'), 404),
    );
  }
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/config',
      summary: 'Where clients connect for live play',
      responses: { 200: json(clientConfigSchema, 'Gateway WebSocket URLs') },
    }),
    (c) => c.json({ gateway_urls: [...deps.gatewayUrls] }, 200),
  );

  // ---- accounts -------------------------------------------------------------------------------

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
    async (c) => {
      const auth = c.get('auth');
      const [wallet, seats] = await Promise.all([accounts.wallet(auth.userId), rooms.seatsOf(auth.userId)]);
      return c.json(
        {
          user: { id: auth.userId, name: auth.name },
          wallet: chips(wallet),
          seats: seats.map((s) => ({ session_id: s.roomId, code: s.code, seat: s.seat, stack: chips(s.stack) })),
        },
        200,
      );
    },
  );

  // ---- rooms ----------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rooms',
      summary: 'Create a room; the creator is its host and may take a seat at once',
      security: cookieAuth,
      request: {
        headers: idempotencyHeaderSchema,
        body: { content: { 'application/json': { schema: createRoomSchema } }, required: true },
      },
      responses: { 201: json(createdRoomSchema, 'Created'), ...errors(400, 401, 403, 409) },
    }),
    async (c) => {
      const auth = c.get('auth');
      const body = c.req.valid('json');
      const key = c.req.valid('header')['idempotency-key'];
      const { room, seat } = await rooms.create(
        auth.userId,
        body.config ?? {},
        body.sit ? { seat: body.sit.seat, buyIn: body.sit.buy_in, idempotencyKey: key } : undefined,
      );
      const members = seat ? [{ userId: auth.userId, name: auth.name, seat: seat.seat, stack: seat.stack }] : [];
      return c.json(
        {
          session_id: room.id,
          code: room.code,
          room: detailJson(room, members),
          seat: seat ? joinedJson(seat) : null,
        },
        201,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/rooms',
      summary: 'Open listed rooms, oldest first',
      security: cookieAuth,
      request: { query: listQuerySchema },
      responses: { 200: json(roomListSchema, 'Rooms'), ...errors(400, 401) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const list = await rooms.list({ game: q.game, limit: q.limit, stakes: q.stakes }, q.page_size);
      return c.json({ rooms: list.map(summaryJson) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rooms/join',
      summary: 'Take a seat in the room with this code, buying in from the wallet',
      description:
        'A code that no open room has, and a room that cannot seat you (full, closing, no such seat, another ' +
        'buy-in range), get the same 404 room_not_found, so codes cannot be probed without buying in. Such ' +
        'misses are limited per user and per client address (429 with Retry-After).',
      security: cookieAuth,
      request: {
        headers: idempotencyHeaderSchema,
        body: { content: { 'application/json': { schema: joinByCodeSchema } }, required: true },
      },
      responses: { 200: json(joinedSchema, 'Seated'), ...errors(400, 401, 403, 404, 409, 429) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const result = await rooms.joinByCode(
        c.get('auth').userId,
        body.code,
        { seat: body.seat, buyIn: body.buy_in, idempotencyKey: c.req.valid('header')['idempotency-key'] },
        addressOf(c),
      );
      return c.json(joinedJson(result), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rooms/quick-join',
      summary: 'Take a seat in the first open listed room that matches',
      security: cookieAuth,
      request: { body: { content: { 'application/json': { schema: quickJoinSchema } }, required: true } },
      responses: { 200: json(joinedSchema, 'Seated'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const result = await rooms.quickJoin(
        c.get('auth').userId,
        { game: body.game, limit: body.limit, stakes: body.stakes },
        body.buy_in,
      );
      return c.json(joinedJson(result), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/rooms/{id}',
      summary: 'One room with its members and their stacks',
      security: cookieAuth,
      request: { params: roomIdParamSchema },
      responses: { 200: json(roomDetailSchema, 'The room'), ...errors(400, 401, 404) },
    }),
    async (c) => {
      const found = await rooms.get(c.req.valid('param').id);
      if (!found) throw new LobbyError(ApiErrorCode.ROOM_NOT_FOUND, 'no such room');
      return c.json(detailJson(found.room, found.members), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rooms/{id}/leave',
      summary: 'Give up your seat; your stack goes back to the wallet',
      description:
        'In a hand, you are folded when your turn comes and leave when it ends; the stack the table ' +
        'reports is paid once every earlier hand at the table is persisted (status leaving, 202). ' +
        'Where no table worker moves chips, the escrow is paid at once (status left, 200).',
      security: cookieAuth,
      request: { params: roomIdParamSchema },
      responses: {
        200: json(leftSchema, 'Left'),
        202: json(leftSchema, 'Leaving at the next hand boundary'),
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const { status, refunded, wallet } = await rooms.leave(c.get('auth').userId, id);
      const body = { session_id: id, status, refunded: chips(refunded), wallet: chips(wallet) };
      return status === 'left' ? c.json(body, 200) : c.json(body, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rooms/{id}/top-up',
      summary: 'Rebuy or top up between hands, from the wallet',
      description:
        "The stack after it (counting chips already waiting) must lie in the room's buy-in range. The table adds " +
        'the chips at its next hand boundary and never above the maximum; any excess goes back to the wallet.',
      security: cookieAuth,
      request: {
        params: roomIdParamSchema,
        headers: idempotencyHeaderSchema,
        body: { content: { 'application/json': { schema: topUpRequestSchema } }, required: true },
      },
      responses: { 200: json(topUpSchema, 'Paid in'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const r = await rooms.topUp(
        c.get('auth').userId,
        id,
        c.req.valid('json').amount,
        c.req.valid('header')['idempotency-key'],
      );
      return c.json(
        {
          session_id: id,
          top_up_id: r.topUpId,
          amount: chips(r.amount),
          status: r.status,
          escrow: chips(r.escrow),
          wallet: chips(r.wallet),
          replayed: r.replayed,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/rooms/{id}',
      summary: 'Close the room (host only): refund every seat, then close it',
      description:
        'A hand in progress is cancelled and every seat gets back its stack and the chips it had committed. ' +
        'Where table workers run, they report the stacks and the room closes after the last refund (202).',
      security: cookieAuth,
      request: { params: roomIdParamSchema },
      responses: {
        200: json(closedSchema, 'Closed'),
        202: json(closedSchema, 'Closing'),
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const { status, refunds } = await rooms.close(c.get('auth').userId, id);
      const body = {
        session_id: id,
        status,
        refunds: refunds.map((r) => ({ user_id: r.userId, amount: chips(r.amount) })),
      };
      return status === 'closed' ? c.json(body, 200) : c.json(body, 202);
    },
  );

  // ---- hand history ---------------------------------------------------------------------------

  const HISTORY_NOTE =
    'You see what you could see at the table (your cards, cards dealt face up, the board, every hand shown) ' +
    "plus what the reveal made public (the seeds). Other players' cards that were never shown are never " +
    'served as cards; but the revealed server seed rebuilds the whole deck, so anyone can reconstruct them ' +
    "afterwards: that is the price of verifiable dealing (FAIRNESS.md's stated limit).";

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/hands',
      summary: 'Your recent hands, newest first',
      description: HISTORY_NOTE,
      security: cookieAuth,
      request: { query: historyQuerySchema },
      responses: { 200: json(historyPageSchema, 'A page of hands'), ...errors(400, 401) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const page = await history.list(c.get('auth').userId, q.page_size, q.cursor);
      return c.json(page, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/hands/{id}',
      summary: 'One of your hands: players, actions in order, pots, board, seeds',
      description: HISTORY_NOTE,
      security: cookieAuth,
      request: { params: handIdParamSchema },
      responses: { 200: json(handDetailSchema, 'The hand'), ...errors(400, 401, 404) },
    }),
    async (c) => c.json(await history.get(c.get('auth').userId, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/hands/{id}/reveal',
      summary: 'The reveal record that `felt verify` and the web client check',
      description:
        'Seeds (seed_commit, server_seed, client seeds, deck_seed) and every dealt deck index with its card; ' +
        'a card you did not see at the table is withheld as `card: null` and listed in `withheld`. ' +
        HISTORY_NOTE,
      security: cookieAuth,
      request: { params: handIdParamSchema },
      responses: { 200: json(revealResponseSchema, 'The reveal record'), ...errors(400, 401, 404) },
    }),
    async (c) => c.json(await history.reveal(c.get('auth').userId, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/hands/{id}/ohh',
      summary: 'The hand as Open Hand History 1.4 (you are the hero)',
      description: HISTORY_NOTE,
      security: cookieAuth,
      request: { params: handIdParamSchema },
      responses: {
        200: { content: { 'application/json': { schema: ohhResponseSchema } }, description: 'OHH' },
        ...errors(400, 401, 404, 422),
      },
    }),
    async (c) => c.json((await history.ohh(c.get('auth').userId, c.req.valid('param').id)) as never, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/hands/{id}/phh',
      summary: 'The hand as PHH (pokerkit notation); cards you did not see are ??',
      description: HISTORY_NOTE,
      security: cookieAuth,
      request: { params: handIdParamSchema },
      responses: {
        200: { content: { 'text/plain': { schema: phhResponseSchema } }, description: 'PHH (TOML)' },
        ...errors(400, 401, 404, 422),
      },
    }),
    async (c) => {
      const text = await history.phh(c.get('auth').userId, c.req.valid('param').id);
      return c.text(text, 200, { 'content-type': 'application/x-phh; charset=utf-8' });
    },
  );

  app.doc('/openapi.json', {
    openapi: '3.0.3',
    info: {
      title: 'Felt lobby',
      version: '0.1.0',
      description:
        'Accounts, sessions, rooms, seats and buy-ins. Errors are `{ "error": { "code", "message" } }` with a ' +
        'stable code; a refused request changes nothing.',
    },
  });

  // Last, so the API, health and metrics routes above always win over a file of the same name.
  if (serveWeb && deps.webDist !== undefined) mountWebClient(app, deps.webDist);
  // The operations port (LOBBY_OPS_PORT): readiness, metrics and debug captures, which the Ingress
  // never routes. The public app keeps only /healthz, a liveness answer that says nothing.
  const ops = new Hono();
  ops.get('/healthz', (c) => c.json({ ok: true }));
  ops.get('/readyz', async (c) => {
    const within = <T>(p: Promise<T>): Promise<boolean> =>
      Promise.race([
        p.then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref()),
      ]);
    const checks = {
      postgres: await within(deps.prisma.$queryRaw`SELECT 1`),
      redis: await within(deps.redis.ping()),
    };
    const ready = checks.postgres && checks.redis;
    return c.json({ ready, checks }, ready ? 200 : 503);
  });
  ops.get('/metrics', async (c) => c.body(await metrics.metrics(), 200, { 'content-type': metrics.contentType }));
  ops.get('/debug/spans', (c) => {
    const spans = debugSpans();
    return spans ? c.json({ spans }) : c.json(errorBody(ApiErrorCode.NOT_FOUND, 'span capture is off'), 404);
  });

  return { app, ops, rooms, history, accounts, metrics, revocationSync };
}
