import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { isDatabaseUnavailable, type PrismaClient } from '@felt/db';
import {
  createMetricsRegistry,
  readCookie,
  registerDependencyGauge,
  type Logger,
  type Redis,
  type Registry,
} from '@felt/platform';
import { SESSION_COOKIE } from '@felt/protocol';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { matchedRoutes, routePath } from 'hono/route';
import { Counter, Histogram } from 'prom-client';
import { Accounts } from './accounts.js';
import { AddressPolicy } from './client-address.js';
import { ApiErrorCode, LobbyError } from './errors.js';
import { HashQueue } from './hash-queue.js';
import { History } from './history.js';
import { ReplicaHistory, type HistoryReader } from './history-reader.js';
import { homePage } from './home-page.js';
import { DEFAULT_LIMITS, type LobbyLimits } from './limits.js';
import { createOpsApp } from './ops-app.js';
import type { ScryptParams } from './passwords.js';
import {
  systemClock,
  type Clock,
  type RevocationList,
  type RoomEventPublisher,
  type WaitlistNotices,
} from './ports.js';
import { RedisRevocationList, RedisRoomEventPublisher, RedisWaitlistNotices } from './redis-adapters.js';
import { RevocationSync } from './revocation-sync.js';
import { CashOutMode, Rooms } from './rooms.js';
import { registerAccountRoutes } from './routes/account-routes.js';
import { registerHandRoutes } from './routes/hand-routes.js';
import { describeIssues, errorBody, json, type Env, type NodeBindings } from './routes/http.js';
import { registerRoomRoutes } from './routes/room-routes.js';
import { registerTournamentRoutes } from './routes/tournament-routes.js';
import { Tournaments } from './tournaments.js';
import { clientConfigSchema } from './schemas.js';
import { originCheck, securityHeaders } from './security.js';
import { Throttles } from './throttle.js';
import { WalletHistory } from './wallet-history.js';
import { hasWebClient, mountWebClient, webRouteLabel } from './web-static.js';

/** Retry-After (s) on a 503 while Postgres is unreachable: a restart or failover takes seconds. */
const DATABASE_RETRY_AFTER_S = 5;

export type { NodeBindings } from './routes/http.js';

/** What the lobby needs from outside; tests pass a test database and a random Redis prefix. */
export interface LobbyDeps {
  readonly prisma: PrismaClient;
  /**
   * A read replica of the same database (DATABASE_REPLICA_URL): hand history reads it, falling back
   * to `prisma` when it fails or lags (history-reader.ts). Absent: everything reads `prisma`.
   */
  readonly replica?: PrismaClient;
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
  /** Defaults to Redis (`P wallet:<userId>`). */
  readonly waitlistNotices?: WaitlistNotices;
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
  readonly tournaments: Tournaments;
  readonly metrics: Registry;
  /** Keeps the gateways' revocation keys complete; main starts it. */
  readonly revocationSync: RevocationSync;
}

/**
 * The lobby's HTTP API as a Hono app, without a listening socket: `main.ts` serves it, and tests
 * call `app.request()` against a test database and a random Redis prefix.
 */
export function createLobbyApp(deps: LobbyDeps): LobbyApp {
  const clock = deps.clock ?? systemClock;
  const metrics = deps.metrics ?? createMetricsRegistry('lobby');
  registerDependencyGauge(metrics, { redis: () => deps.redis.ping(), postgres: () => deps.prisma.$queryRaw`SELECT 1` });
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
    waitlistNotices: deps.waitlistNotices ?? new RedisWaitlistNotices(deps.redis, deps.redisPrefix),
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
  const replicaFallbacks = new Counter({
    name: 'felt_lobby_history_replica_fallbacks_total',
    help: 'Hand-history reads the replica could not serve and the primary did, by reason (failed, lagging)',
    labelNames: ['reason'],
    registers: [metrics],
  });
  const historyReader: HistoryReader = deps.replica
    ? new ReplicaHistory(new History(deps.replica), history, log, (reason) => replicaFallbacks.inc({ reason }))
    : history;
  const walletHistory = new WalletHistory(deps.prisma);
  const tournaments = new Tournaments(deps.prisma, log, clock, throttles);

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
  app.use('/api/wallet/*', requireAuth);
  app.use('/api/waitlists', requireAuth);
  // Also matches /api/tournaments itself.
  app.use('/api/tournaments/*', requireAuth);

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
    if (isDatabaseUnavailable(err)) {
      // Postgres is down, restarting or out of connections: say so, and when to try again.
      log.warn(
        { event: 'database_unavailable', route: routePath(c as Context, -1), err: String(err) },
        'database unavailable',
      );
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_S));
      return c.json(errorBody(ApiErrorCode.UNAVAILABLE, 'the database is unavailable; try again shortly'), 503);
    }
    log.error({ event: 'http_error', err, route: routePath(c as Context, -1) }, 'request failed');
    return c.json(errorBody(ApiErrorCode.INTERNAL, 'the server failed; nothing was changed'), 500);
  });

  app.notFound((c) => c.json(errorBody(ApiErrorCode.NOT_FOUND, `no route for ${c.req.method} ${c.req.path}`), 404));

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

  // ---- the API: accounts, rooms, hand history, tournaments (routes/) ---------------------------------------

  registerAccountRoutes(app, { accounts, rooms, walletHistory, clock, cookieSecure: deps.cookieSecure, addressOf });
  registerRoomRoutes(app, { rooms, addressOf });
  registerHandRoutes(app, historyReader);
  registerTournamentRoutes(app, tournaments);

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
  const ops = createOpsApp({ prisma: deps.prisma, redis: deps.redis, metrics });

  return { app, ops, rooms, history, accounts, tournaments, metrics, revocationSync };
}
