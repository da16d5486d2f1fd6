import type { ChannelCredentials } from '@grpc/grpc-js';
import uWS from 'uWebSockets.js';
import {
  redisKeys,
  type ChannelSubscriber,
  type Logger,
  type Redis,
  type RedisKeys,
  type Registry,
  type RingView,
} from '@felt/platform';
import {
  ErrorCode,
  parseClientFrame,
  readClientFrame,
  type ErrorMessage,
  type ParseClientFrameResult,
} from '@felt/protocol';
import { ChannelSubscriptions } from './channel-subscriptions.js';
import { LobbyFeedFanout } from './lobby-feed.js';
import { clientAddress } from './client-address.js';
import { GatewayCloseCode } from './close-codes.js';
import { ConnectionIndex, NO_TABLES, type Attachment } from './connection-index.js';
import { registerHttpRoutes } from './http-routes.js';
import { createGatewayMetrics, type GatewayMetrics } from './metrics.js';
import { SocketLimiter, SocketRefusal } from './socket-limits.js';
import { SessionWatch } from './session-watch.js';
import { TableRequests, type TableClient } from './table-requests.js';
import { checkBucketLimits, fullBucket, takeToken, type BucketState } from './token-bucket.js';
import { authorizeUpgrade, RefusalReason, type UpgradeAuthOptions } from './upgrade-auth.js';
import { WorkerRouter } from './worker-router.js';

// A build whose native binary did not load falls back to a JS shim that lacks H3App and can hang
// under load; refuse to start on it.
if (typeof (uWS as unknown as Record<string, unknown>).H3App !== 'function') {
  throw new Error('uWebSockets.js native binary did not load (fallback shim detected); refusing to start');
}

/** Past this many bytes queued for one socket, the reader is too slow: close it (documented 4013). */
export const BACKPRESSURE_LIMIT = 1024 * 1024;
/**
 * uWS reads frames up to this many times the payload limit, so that a frame a little too large is
 * answered with a close code the client can read (1009); past it, uWS drops the connection on the
 * frame's header, before buffering any of it (the client sees 1006). A socket thus never makes the
 * gateway hold more than twice GATEWAY_MAX_PAYLOAD of one frame, or GATEWAY_MAX_BLIND_PAYLOAD when
 * that is larger (a blind_shuffle frame must be read whole).
 */
export const HARD_PAYLOAD_FACTOR = 2;

/** The one client frame type allowed past GATEWAY_MAX_PAYLOAD, up to GATEWAY_MAX_BLIND_PAYLOAD. */
const LARGE_FRAME_TYPE = 'blind_shuffle';

/** What uWS passes its close handler when it dropped a connection itself (a 1006 with no close frame). */
const UWS_DROP_REASONS: Readonly<Record<string, string>> = {
  'Received too big message': 'oversized_unread',
  'Received invalid UTF-8': 'invalid_utf8',
};

/**
 * One client socket: uWS's user data, held for as long as the socket is open (uWS copies its own
 * fields onto the socket's object, so it has no methods). What every idle socket costs the gateway's
 * heap, so it is kept small (BENCH idle-socket): the rate limit's bucket as two numbers that fit in
 * a small integer, no connection id and the shared empty `tables` until the first join.
 */
class SocketData implements TableClient, BucketState {
  id = '';
  tables: Map<string, Attachment> = NO_TABLES;
  /** Counted by the socket caps: false until open admits it, and for a socket refused there. */
  admitted = false;
  closed = false;
  ws: uWS.WebSocket<SocketData> | undefined = undefined;
  /** The rate limit's bucket (token-bucket.ts): thousandths of a token left, when last refilled (ms on {@link bucketClock}). */
  tokens: number;
  last: number;
  droppedInRow = 0;
  /** When the socket was last told it is rate limited (ms on {@link bucketClock}). */
  lastRateErrorAt = -1000;

  constructor(
    readonly userId: string,
    readonly sessionId: string,
    readonly name: string,
    /** Session expiry, seconds since the epoch (the token's exp). */
    readonly expiresAt: number,
    /** The client address the socket caps count this socket under (client-address.ts). */
    readonly address: string,
    burst: number,
    now: number,
  ) {
    this.tokens = fullBucket(burst);
    this.last = now;
  }
}

/**
 * The rate limit's clock: ms since this module loaded, a small integer for weeks (a Date.now() in
 * every socket would be a 16-byte heap number each).
 */
const CLOCK_ZERO = Date.now();
// Math.floor: a difference of two heap numbers is one itself, even when it is whole.
const bucketClock = (now: number): number => Math.floor(now - CLOCK_ZERO);

const REFUSAL_STATUS = { 401: '401 Unauthorized', 403: '403 Forbidden', 503: '503 Service Unavailable' } as const;

export interface GatewayOptions {
  readonly gatewayId: string;
  readonly host: string;
  readonly port: number;
  readonly secret: string;
  readonly prefix: string;
  readonly allowedOrigins: readonly string[];
  readonly maxPayload: number;
  /**
   * Bytes of a blind_shuffle frame (GATEWAY_MAX_BLIND_PAYLOAD), the one type allowed past maxPayload;
   * absent or lower: maxPayload.
   */
  readonly maxBlindPayload?: number;
  readonly ratePerSec: number;
  readonly rateBurst: number;
  /** Open sockets this gateway holds in all (GATEWAY_MAX_SOCKETS); absent: no such bound. */
  readonly maxSockets?: number;
  /** Open sockets per account at this gateway (GATEWAY_MAX_SOCKETS_PER_USER). */
  readonly maxSocketsPerUser: number;
  /** Open sockets per client address at this gateway (GATEWAY_MAX_SOCKETS_PER_ADDRESS). */
  readonly maxSocketsPerAddress: number;
  /** Tables one socket may be attached to (GATEWAY_MAX_TABLES_PER_SOCKET). */
  readonly maxTablesPerSocket: number;
  /** Proxies in front of the gateway trusted to append to X-Forwarded-For (GATEWAY_TRUST_PROXY). */
  readonly trustProxyHops: number;
  readonly debugEndpoints: boolean;
  readonly redis: Redis;
  readonly subscriber: ChannelSubscriber;
  readonly ring: RingView;
  readonly metricsRegistry: Registry;
  readonly logger: Logger;
  readonly requestTimeoutMs?: number;
  /** How the gateway dials workers (gRPC mutual TLS from FELT_GRPC_TLS_*); absent: plaintext. */
  readonly workerCredentials?: ChannelCredentials;
  /**
   * How often every open socket's session is re-read from Redis (revoked or expired), the safety
   * net behind the revocation channel (session-watch.ts).
   */
  readonly sessionCheckMs: number;
  /** Called with a listener for each time the subscriber's Redis connection is ready (again). */
  readonly onSubscriberReady?: (listener: () => void) => void;
  /** Tests only: the fraction of pub/sub deliveries dropped on purpose (0 in production). */
  readonly dropRate?: number;
  /** On shutdown: sockets closed per batch (default 500), and the pause between batches (default 100 ms). */
  readonly closeBatch?: number;
  readonly closeIntervalMs?: number;
}

/**
 * The WebSocket edge: authenticates upgrades, validates and rate-limits frames, forwards table
 * traffic to the owning worker (table-requests.ts) and delivers the workers' pub/sub events to the
 * sockets at each table (channel-subscriptions.ts).
 */
export class Gateway {
  private readonly app: uWS.TemplatedApp;
  private listenSocket: uWS.us_listen_socket | undefined;
  private readonly sockets: SessionWatch<SocketData>;
  private readonly auth: UpgradeAuthOptions;
  private readonly keys: RedisKeys;
  private readonly metrics: GatewayMetrics;
  private readonly router: WorkerRouter;
  private readonly channels: ChannelSubscriptions<SocketData>;
  private readonly lobby: LobbyFeedFanout<SocketData>;
  private readonly tables: TableRequests<SocketData>;
  private readonly allowed: ReadonlySet<string>;
  private readonly limiter: SocketLimiter;
  /** Bytes a blind_shuffle frame may have: GATEWAY_MAX_BLIND_PAYLOAD, never below maxPayload. */
  private readonly blindPayload: number;
  private stopping = false;

  constructor(private readonly o: GatewayOptions) {
    this.blindPayload = Math.max(o.maxBlindPayload ?? o.maxPayload, o.maxPayload);
    this.keys = redisKeys(o.prefix);
    this.allowed = new Set(o.allowedOrigins);
    checkBucketLimits(o.ratePerSec, o.rateBurst);
    this.auth = { secret: o.secret, redis: o.redis, prefix: o.prefix, allowedOrigins: this.allowed };
    this.sockets = new SessionWatch<SocketData>({
      redis: o.redis,
      subscriber: o.subscriber,
      keys: this.keys,
      logger: o.logger,
      sweepMs: o.sessionCheckMs,
      end: (s, reason) => this.closeSocket(s, GatewayCloseCode.SESSION_ENDED, reason),
    });
    o.onSubscriberReady?.(() => this.sockets.subscriberReconnected());
    this.limiter = new SocketLimiter({
      perUser: o.maxSocketsPerUser,
      perAddress: o.maxSocketsPerAddress,
      ...(o.maxSockets !== undefined ? { total: o.maxSockets } : {}),
    });
    this.router = new WorkerRouter({
      ring: o.ring,
      gatewayId: o.gatewayId,
      logger: o.logger,
      requestTimeoutMs: o.requestTimeoutMs ?? 5_000,
      ...(o.workerCredentials ? { credentials: o.workerCredentials } : {}),
      onLinkOpen: () => this.tables.reconcile(),
    });
    this.metrics = createGatewayMetrics(o.metricsRegistry, () => this.router.openStreams(), o.maxSockets);
    const index = new ConnectionIndex();
    this.channels = new ChannelSubscriptions<SocketData>({
      subscriber: o.subscriber,
      keys: this.keys,
      index,
      logger: o.logger,
      deliver: (conn, text) => this.send(conn, text),
      dropRate: o.dropRate ?? 0,
      onDropped: () => this.metrics.dropped.inc(),
      onReattach: (tableId) => this.tables.reattachTable(tableId),
      // On a Redis Cluster each table's channels are subscribed on the shard its worker SPUBLISHes to.
      sharded: o.redis.isCluster,
    });
    this.tables = new TableRequests<SocketData>({
      gatewayId: o.gatewayId,
      ring: o.ring,
      router: this.router,
      index,
      channels: this.channels,
      metrics: this.metrics,
      logger: o.logger,
      maxTablesPerSocket: o.maxTablesPerSocket,
      send: (conn, text) => this.send(conn, text),
      sendError: (conn, error) => this.sendError(conn, error),
    });
    this.lobby = new LobbyFeedFanout<SocketData>({
      redis: o.redis,
      subscriber: o.subscriber,
      keys: this.keys,
      logger: o.logger,
      send: (conn, text) => this.send(conn, text),
      sendError: (conn, error) => this.sendError(conn, error),
    });
    o.ring.onChange(() => {
      this.router.syncLinks();
      this.tables.reconcile();
    });
    this.app = this.buildApp();
  }

  async start(): Promise<number> {
    this.router.syncLinks();
    // Subscribed before the first socket opens, so that no logout can pass an open socket by.
    await this.sockets.start();
    return new Promise<number>((resolve, reject) => {
      this.app.listen(this.o.host, this.o.port, (socket) => {
        if (!socket) return reject(new Error(`gateway could not listen on ${this.o.host}:${this.o.port}`));
        this.listenSocket = socket;
        resolve(uWS.us_socket_local_port(socket));
      });
    });
  }

  ready(): { ready: boolean; checks: Record<string, boolean> } {
    const checks = {
      redis: this.o.redis.status === 'ready',
      workerStream: this.router.openStreams() > 0,
      serving: !this.stopping,
    };
    return { ready: Object.values(checks).every(Boolean), checks };
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.tables.stop();
    this.lobby.stop();
    if (this.listenSocket) uWS.us_listen_socket_close(this.listenSocket);
    this.listenSocket = undefined;
    await this.closeInBatches();
    await this.sockets.stop();
    this.router.close();
    await this.channels.closeAll();
  }

  /**
   * Closes every socket with 1001 (going away), a batch at a time: a gateway holding thousands of
   * sockets does not send them all to the other gateways in the same instant. The sockets still
   * open keep being served meanwhile (the worker links and subscriptions close after the last).
   */
  private async closeInBatches(): Promise<void> {
    const batch = Math.max(1, this.o.closeBatch ?? 500);
    const pauseMs = this.o.closeIntervalMs ?? 100;
    const order = [...this.sockets.sockets()];
    for (let i = 0; i < order.length; i += batch) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      for (const s of order.slice(i, i + batch)) {
        if (this.sockets.has(s)) this.closeSocket(s, GatewayCloseCode.GOING_AWAY, 'gateway shutting down');
      }
    }
  }

  // ------------------------------------------------------------------------------------------
  // HTTP and upgrade

  private buildApp(): uWS.TemplatedApp {
    const app = uWS.App();
    app.ws<SocketData>('/ws', {
      // A blind_shuffle up to its own limit must be read whole, even when that is more than twice
      // GATEWAY_MAX_PAYLOAD.
      maxPayloadLength: Math.max(this.o.maxPayload * HARD_PAYLOAD_FACTOR, this.blindPayload),
      maxBackpressure: BACKPRESSURE_LIMIT * 2,
      // Typed as a number in this build's d.ts; it is a flag.
      closeOnBackpressureLimit: 1,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => this.upgrade(res, req, context),
      open: (ws) => this.onOpen(ws),
      message: (ws, message, isBinary) => this.onMessage(ws.getUserData(), message, isBinary),
      close: (ws, code, message) => this.onClose(ws.getUserData(), code, message),
    });
    registerHttpRoutes(app, {
      gatewayId: this.o.gatewayId,
      ring: this.o.ring,
      metricsRegistry: this.o.metricsRegistry,
      debugEndpoints: this.o.debugEndpoints,
      ready: () => this.ready(),
    });
    return app;
  }

  private upgrade(res: uWS.HttpResponse, req: uWS.HttpRequest, context: uWS.us_socket_context_t): void {
    // The request object is only valid until the first await: copy what we need.
    const headers = { origin: req.getHeader('origin'), cookie: req.getHeader('cookie') };
    const address = clientAddress(
      Buffer.from(res.getRemoteAddressAsText()).toString('latin1'),
      this.o.trustProxyHops > 0 ? req.getHeader('x-forwarded-for') : '',
      this.o.trustProxyHops,
    );
    const key = req.getHeader('sec-websocket-key');
    const protocol = req.getHeader('sec-websocket-protocol');
    const extensions = req.getHeader('sec-websocket-extensions');
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    if (this.stopping) {
      res.writeStatus('503 Service Unavailable').end('{"error":"shutting_down"}');
      return;
    }
    authorizeUpgrade(this.auth, headers)
      .catch(() => ({ ok: false as const, status: 503 as const, reason: RefusalReason.UNAVAILABLE }))
      .then((decision) => {
        if (aborted) return;
        if (!decision.ok) {
          res.cork(() => {
            this.metrics.refusals.inc({ reason: decision.reason });
            res
              .writeStatus(REFUSAL_STATUS[decision.status])
              .writeHeader('content-type', 'application/json')
              .end(JSON.stringify({ error: decision.reason }));
          });
          return;
        }
        const { claims } = decision;
        const data = new SocketData(
          claims.userId,
          claims.sessionId,
          claims.name,
          claims.expiresAt,
          address,
          this.o.rateBurst,
          bucketClock(Date.now()),
        );
        // Not corked: uWS's cork() after an asynchronous upgrade can misread the upgraded socket's
        // state and close it at once (a dirty close, 1006, on both ends; uWebSockets#1928, fixed
        // upstream by uWebSockets PR #1929). uWS's maintainer's advice until then: upgrade uncorked.
        res.upgrade(data, key, protocol, extensions, context);
      })
      .catch((err: unknown) => this.o.logger.error({ err }, 'upgrade failed'));
  }

  /**
   * The socket caps are applied once the socket is open, with a close code, rather than at the
   * upgrade with an HTTP status: a browser's script never sees the status of a refused upgrade, only
   * a close code and reason. Counting here, on uWS's one thread, is exact however many upgrades race.
   */
  private onOpen(ws: uWS.WebSocket<SocketData>): void {
    const data = ws.getUserData();
    data.ws = ws;
    const refusal = this.limiter.admit(data.userId, data.address);
    if (refusal !== null) {
      this.metrics.refusals.inc({ reason: refusal });
      if (refusal === SocketRefusal.GATEWAY) {
        // Full: the client's reconnect goes to the next gateway it knows.
        this.closeSocket(data, GatewayCloseCode.TRY_AGAIN_LATER, `this gateway is full (${this.o.maxSockets} sockets)`);
        return;
      }
      this.closeSocket(
        data,
        GatewayCloseCode.TOO_MANY_SOCKETS,
        refusal === SocketRefusal.USER
          ? `too many sockets for this account (at most ${this.o.maxSocketsPerUser})`
          : `too many sockets from this address (at most ${this.o.maxSocketsPerAddress})`,
      );
      return;
    }
    if (!this.sockets.add(data)) {
      // Its upgrade read Redis just before a logout whose message arrived before the socket opened.
      this.limiter.release(data.userId, data.address);
      this.closeSocket(data, GatewayCloseCode.SESSION_ENDED, 'session revoked');
      return;
    }
    data.admitted = true;
    this.metrics.sockets.inc();
  }

  // ------------------------------------------------------------------------------------------
  // Client frames

  private onMessage(conn: SocketData, message: ArrayBuffer, isBinary: boolean): void {
    if (conn.closed) return;
    // Past maxPayload only a blind_shuffle text frame up to its own limit is read; anything larger is
    // refused here, before a byte of it is parsed.
    const oversized = message.byteLength > this.o.maxPayload;
    if (oversized && (isBinary || message.byteLength > this.blindPayload)) {
      this.tooLarge(conn);
      return;
    }
    const now = Date.now();
    const clock = bucketClock(now);
    // A frame past maxPayload (a blind_shuffle) costs what as many full-size frames would: the bytes a
    // socket may send a second stay what the rate limit allows, so large frames buy an attacker nothing.
    const cost = oversized ? Math.min(this.o.rateBurst, Math.ceil(message.byteLength / this.o.maxPayload)) : 1;
    if (!takeToken(conn, clock, this.o.ratePerSec, this.o.rateBurst, cost)) {
      this.metrics.messagesIn.inc({ type: 'rate_limited' });
      conn.droppedInRow++;
      if (conn.droppedInRow > this.o.rateBurst) {
        this.closeSocket(conn, GatewayCloseCode.RATE_LIMIT_ABUSE, 'rate limit exceeded');
        return;
      }
      if (clock - conn.lastRateErrorAt >= 1000) {
        conn.lastRateErrorAt = clock;
        this.sendError(conn, { type: 'error', code: ErrorCode.RATE_LIMITED, message: 'too many frames; slow down' });
      }
      return;
    }
    conn.droppedInRow = 0;
    if (isBinary) {
      this.metrics.messagesIn.inc({ type: 'invalid' });
      this.sendError(conn, {
        type: 'error',
        code: ErrorCode.INVALID_FRAME,
        message: 'binary frames are not supported; send JSON text',
      });
      return;
    }
    const text = Buffer.from(message).toString('utf8');
    let parsed: ParseClientFrameResult;
    if (oversized) {
      // Over maxPayload: a blind_shuffle, or the frame is too large, whatever else it is.
      const raw = jsonOrUndefined(text);
      if (!isFrameOfType(raw, LARGE_FRAME_TYPE)) {
        this.tooLarge(conn);
        return;
      }
      parsed = readClientFrame(raw);
    } else {
      parsed = parseClientFrame(text);
    }
    if (!parsed.ok) {
      this.metrics.messagesIn.inc({ type: 'invalid' });
      const { ok: _ok, ...error } = parsed;
      this.sendError(conn, { type: 'error', ...error });
      return;
    }
    const frame = parsed.frame;
    this.metrics.messagesIn.inc({ type: frame.type });
    if (frame.type === 'ping') {
      // An empty nonce is a nonce: echo it whenever the ping carried one.
      this.send(
        conn,
        JSON.stringify({ type: 'pong', ...(frame.nonce !== undefined ? { nonce: frame.nonce } : {}), ts: now }),
      );
      return;
    }
    if (frame.type === 'lobby_subscribe') {
      void this.lobby.subscribe(conn);
      return;
    }
    if (frame.type === 'lobby_unsubscribe') {
      this.lobby.unsubscribe(conn);
      return;
    }
    void this.tables.forward(conn, frame);
  }

  /** A frame over the payload limit its type has: closed with 1009. */
  private tooLarge(conn: SocketData): void {
    this.metrics.messagesIn.inc({ type: 'oversized' });
    this.closeSocket(conn, GatewayCloseCode.MESSAGE_TOO_BIG, 'frame too large');
  }

  private onClose(conn: SocketData, code: number, message: ArrayBuffer): void {
    conn.closed = true;
    conn.ws = undefined;
    if (conn.admitted) {
      conn.admitted = false;
      this.limiter.release(conn.userId, conn.address);
    }
    if (this.sockets.delete(conn)) this.metrics.sockets.dec();
    // uWS dropped the connection itself (a frame over its maxPayloadLength, or text that is not
    // UTF-8) before the frame reached onMessage: count the frame like the ones refused there.
    const reason = Buffer.from(message).toString('utf8').slice(0, 123);
    const dropped = code === 1006 ? UWS_DROP_REASONS[reason] : undefined;
    if (dropped !== undefined) this.metrics.messagesIn.inc({ type: dropped });
    this.tables.detachAll(conn);
    this.lobby.unsubscribe(conn);
    this.o.logger.debug({ event: 'socket_closed', connectionId: conn.id, code, reason }, 'socket closed');
  }

  // ------------------------------------------------------------------------------------------
  // Delivery

  private send(conn: SocketData, text: string): void {
    const ws = conn.ws;
    if (conn.closed || !ws) return;
    ws.cork(() => ws.send(text, false));
    this.metrics.messagesOut.inc();
    if (ws.getBufferedAmount() > BACKPRESSURE_LIMIT)
      this.closeSocket(conn, GatewayCloseCode.SLOW_CONSUMER, 'slow consumer');
  }

  private sendError(conn: SocketData, error: ErrorMessage): void {
    this.metrics.frameErrors.inc({ code: error.code });
    this.send(conn, JSON.stringify(error));
  }

  private closeSocket(conn: SocketData, code: number, reason: string): void {
    const ws = conn.ws;
    if (conn.closed || !ws) return;
    this.metrics.closes.inc({ code: String(code) });
    ws.end(code, reason);
  }
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isFrameOfType(raw: unknown, type: string): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === type;
}
