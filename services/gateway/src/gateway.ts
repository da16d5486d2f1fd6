import { randomUUID } from 'node:crypto';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import uWS from 'uWebSockets.js';
import {
  debugSpans,
  decodeEnvelope,
  injectTraceContext,
  redisKeys,
  type ChannelSubscriber,
  type Logger,
  type Redis,
  type RedisKeys,
  type Registry,
  type RingView,
} from '@felt/platform';
import type { GatewayFrame } from '@felt/proto';
import { ErrorCode, isErrorCode, parseClientFrame, type ClientFrame, type ErrorMessage } from '@felt/protocol';
import { clientAddress } from './client-address.js';
import { GatewayCloseCode } from './close-codes.js';
import { ConnectionIndex, type Attachment, type Channel, type ClientConnection } from './connection-index.js';
import { createGatewayMetrics, type GatewayMetrics } from './metrics.js';
import { SocketLimiter, SocketRefusal } from './socket-limits.js';
import { TokenBucket } from './token-bucket.js';
import { authorizeUpgrade, RefusalReason } from './upgrade-auth.js';
import type { WorkerAnswer } from './worker-link.js';
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
 * gateway hold more than twice GATEWAY_MAX_PAYLOAD of one frame.
 */
export const HARD_PAYLOAD_FACTOR = 2;

/** What uWS passes its close handler when it dropped a connection itself (a 1006 with no close frame). */
const UWS_DROP_REASONS: Readonly<Record<string, string>> = {
  'Received too big message': 'oversized_unread',
  'Received invalid UTF-8': 'invalid_utf8',
};

/** Retry interval for re-attachments that found the next owner unreachable. */
const RECONCILE_RETRY_MS = 500;

const tracer = trace.getTracer('felt.gateway');

interface SocketData extends ClientConnection {
  /** Session expiry, seconds since the epoch (the token's exp). */
  readonly expiresAt: number;
  /** The client address the socket caps count this socket under (client-address.ts). */
  readonly address: string;
  /** Counted by the socket caps: false until open admits it, and for a socket refused there. */
  admitted: boolean;
  readonly bucket: TokenBucket;
  droppedInRow: number;
  lastRateErrorAt: number;
  closed: boolean;
  ws: uWS.WebSocket<SocketData> | undefined;
}

export interface GatewayOptions {
  readonly gatewayId: string;
  readonly host: string;
  readonly port: number;
  readonly secret: string;
  readonly prefix: string;
  readonly allowedOrigins: readonly string[];
  readonly maxPayload: number;
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
  /** How often open sockets' sessions are checked for revocation and expiry. */
  readonly sessionCheckMs: number;
  /** Tests only: the fraction of pub/sub deliveries dropped on purpose (0 in production). */
  readonly dropRate?: number;
}

interface Subscription {
  count: number;
  ready: Promise<void>;
  off: (() => Promise<void>) | undefined;
}

/**
 * The WebSocket edge: authenticates upgrades, validates and rate-limits frames, forwards table
 * traffic to the owning worker and delivers the workers' pub/sub events to the sockets at each table.
 */
export class Gateway {
  private readonly app: uWS.TemplatedApp;
  private listenSocket: uWS.us_listen_socket | undefined;
  private readonly index = new ConnectionIndex();
  private readonly sockets = new Set<SocketData>();
  private readonly subs = new Map<string, Subscription>();
  private readonly keys: RedisKeys;
  private readonly metrics: GatewayMetrics;
  private readonly router: WorkerRouter;
  private readonly allowed: ReadonlySet<string>;
  private readonly limiter: SocketLimiter;
  private stopping = false;
  private readonly dropRate: number;
  private sessionTimer: NodeJS.Timeout | undefined;
  private reconcileTimer: NodeJS.Timeout | undefined;

  constructor(private readonly o: GatewayOptions) {
    this.keys = redisKeys(o.prefix);
    this.dropRate = o.dropRate ?? 0;
    this.allowed = new Set(o.allowedOrigins);
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
      onLinkOpen: () => this.reconcile(),
    });
    this.metrics = createGatewayMetrics(o.metricsRegistry, () => this.router.openStreams(), o.maxSockets);
    o.ring.onChange(() => {
      this.router.syncLinks();
      this.reconcile();
    });
    this.app = this.buildApp();
  }

  async start(): Promise<number> {
    this.router.syncLinks();
    this.sessionTimer = setInterval(() => {
      this.checkSessions().catch((err: unknown) => this.o.logger.warn({ err }, 'session check failed'));
    }, this.o.sessionCheckMs);
    this.sessionTimer.unref();
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
    if (this.sessionTimer) clearInterval(this.sessionTimer);
    if (this.reconcileTimer) clearTimeout(this.reconcileTimer);
    if (this.listenSocket) uWS.us_listen_socket_close(this.listenSocket);
    this.listenSocket = undefined;
    for (const s of [...this.sockets]) this.closeSocket(s, GatewayCloseCode.GOING_AWAY, 'gateway shutting down');
    this.router.close();
    await Promise.all([...this.subs.values()].map((s) => (s.off ? s.off() : Promise.resolve())));
    this.subs.clear();
  }

  // ------------------------------------------------------------------------------------------
  // HTTP and upgrade

  private buildApp(): uWS.TemplatedApp {
    const app = uWS.App();
    app.ws<SocketData>('/ws', {
      maxPayloadLength: this.o.maxPayload * HARD_PAYLOAD_FACTOR,
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
    app.get('/healthz', (res) => {
      res.writeHeader('content-type', 'application/json').end('{"ok":true}');
    });
    app.get('/readyz', (res) => {
      const report = this.ready();
      res
        .writeStatus(report.ready ? '200 OK' : '503 Service Unavailable')
        .writeHeader('content-type', 'application/json')
        .end(JSON.stringify(report));
    });
    app.get('/metrics', (res) => {
      let aborted = false;
      res.onAborted(() => {
        aborted = true;
      });
      this.o.metricsRegistry.metrics().then(
        (text) => {
          if (!aborted) res.cork(() => res.writeHeader('content-type', this.o.metricsRegistry.contentType).end(text));
        },
        () => {
          if (!aborted) res.cork(() => res.writeStatus('500 Internal Server Error').end());
        },
      );
    });
    app.get('/debug/spans', (res) => {
      const spans = debugSpans();
      if (spans === null) return void res.writeStatus('404 Not Found').end('{"error":"not_found"}');
      res.writeHeader('content-type', 'application/json').end(JSON.stringify(spans));
    });
    app.get('/debug/ring', (res, req) => {
      if (!this.o.debugEndpoints) return void res.writeStatus('404 Not Found').end('{"error":"not_found"}');
      const table = req.getQuery('table') ?? '';
      res.writeHeader('content-type', 'application/json').end(
        JSON.stringify({
          gatewayId: this.o.gatewayId,
          members: this.o.ring.current.members,
          owner: table ? (this.o.ring.ownerOf(table)?.id ?? null) : null,
        }),
      );
    });
    app.any('/*', (res) => {
      res.writeStatus('404 Not Found').writeHeader('content-type', 'application/json').end('{"error":"not_found"}');
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
    authorizeUpgrade(
      { secret: this.o.secret, redis: this.o.redis, prefix: this.o.prefix, allowedOrigins: this.allowed },
      headers,
    )
      .catch(() => ({ ok: false as const, status: 503 as const, reason: RefusalReason.UNAVAILABLE }))
      .then((decision) => {
        if (aborted) return;
        res.cork(() => {
          if (!decision.ok) {
            this.metrics.refusals.inc({ reason: decision.reason });
            const status = { 401: '401 Unauthorized', 403: '403 Forbidden', 503: '503 Service Unavailable' }[
              decision.status
            ];
            res
              .writeStatus(status)
              .writeHeader('content-type', 'application/json')
              .end(JSON.stringify({ error: decision.reason }));
            return;
          }
          const now = Date.now();
          const data: SocketData = {
            id: randomUUID(),
            userId: decision.claims.userId,
            sessionId: decision.claims.sessionId,
            expiresAt: decision.claims.expiresAt,
            address,
            admitted: false,
            name: decision.claims.name,
            tables: new Map(),
            bucket: new TokenBucket(this.o.ratePerSec, this.o.rateBurst, now),
            droppedInRow: 0,
            lastRateErrorAt: 0,
            closed: false,
            ws: undefined,
          };
          res.upgrade(data, key, protocol, extensions, context);
        });
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
    data.admitted = true;
    this.sockets.add(data);
    this.metrics.sockets.inc();
  }

  /**
   * A session revoked (logout) or expired after the upgrade ends its sockets too: one pipelined
   * EXISTS per open session every sessionCheckMs, so logout reaches live sockets within that bound.
   */
  private async checkSessions(): Promise<void> {
    const bySession = new Map<string, SocketData[]>();
    const nowSec = Date.now() / 1000;
    for (const s of this.sockets) {
      if (s.expiresAt <= nowSec) {
        this.closeSocket(s, GatewayCloseCode.SESSION_ENDED, 'session expired');
        continue;
      }
      const list = bySession.get(s.sessionId);
      if (list) list.push(s);
      else bySession.set(s.sessionId, [s]);
    }
    if (bySession.size === 0) return;
    const ids = [...bySession.keys()];
    const pipeline = this.o.redis.pipeline();
    for (const id of ids) pipeline.exists(this.keys.revoked(id));
    const results = (await pipeline.exec()) ?? [];
    results.forEach(([err, revoked], i) => {
      if (err || revoked !== 1) return;
      for (const s of bySession.get(ids[i]!) ?? [])
        this.closeSocket(s, GatewayCloseCode.SESSION_ENDED, 'session revoked');
    });
  }

  // ------------------------------------------------------------------------------------------
  // Client frames

  private onMessage(conn: SocketData, message: ArrayBuffer, isBinary: boolean): void {
    if (conn.closed) return;
    if (message.byteLength > this.o.maxPayload) {
      this.metrics.messagesIn.inc({ type: 'oversized' });
      this.closeSocket(conn, GatewayCloseCode.MESSAGE_TOO_BIG, 'frame too large');
      return;
    }
    const now = Date.now();
    if (!conn.bucket.take(now)) {
      this.metrics.messagesIn.inc({ type: 'rate_limited' });
      conn.droppedInRow++;
      if (conn.droppedInRow > this.o.rateBurst) {
        this.closeSocket(conn, GatewayCloseCode.RATE_LIMIT_ABUSE, 'rate limit exceeded');
        return;
      }
      if (now - conn.lastRateErrorAt >= 1000) {
        conn.lastRateErrorAt = now;
        this.sendError(conn, { code: ErrorCode.RATE_LIMITED, message: 'too many frames; slow down' });
      }
      return;
    }
    conn.droppedInRow = 0;
    if (isBinary) {
      this.metrics.messagesIn.inc({ type: 'invalid' });
      this.sendError(conn, {
        code: ErrorCode.INVALID_FRAME,
        message: 'binary frames are not supported; send JSON text',
      });
      return;
    }
    const parsed = parseClientFrame(Buffer.from(message).toString('utf8'));
    if (!parsed.ok) {
      this.metrics.messagesIn.inc({ type: 'invalid' });
      const { ok: _ok, ...error } = parsed;
      this.sendError(conn, error);
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
    void tracer.startActiveSpan(
      `gateway.${frame.type}`,
      { kind: SpanKind.SERVER, attributes: { 'felt.table_id': frame.table_id, 'felt.gateway_id': this.o.gatewayId } },
      async (span) => {
        const started = performance.now();
        let result = 'ok';
        try {
          result = await this.handleTableFrame(conn, frame);
        } catch (err) {
          result = ErrorCode.INTERNAL;
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          this.o.logger.error({ err, type: frame.type }, 'frame handling failed');
          this.sendError(conn, {
            code: ErrorCode.INTERNAL,
            message: 'internal error',
            table_id: frame.table_id,
            ...cmd(frame),
          });
        } finally {
          span.setAttribute('felt.result', result);
          span.end();
          this.metrics.requestSeconds.observe({ type: frame.type, result }, (performance.now() - started) / 1000);
        }
      },
    );
  }

  /** Returns a result label for metrics and the span. */
  private async handleTableFrame(conn: SocketData, frame: Exclude<ClientFrame, { type: 'ping' }>): Promise<string> {
    const tableId = frame.table_id;
    switch (frame.type) {
      case 'join_table': {
        const existing = conn.tables.get(tableId);
        const spectate = frame.spectate === true;
        // Attachments still in flight count, so a burst of joins cannot pass the cap.
        if (!existing && conn.tables.size >= this.o.maxTablesPerSocket) {
          return this.refuse(conn, frame, {
            kind: 'error',
            code: ErrorCode.LIMIT_REACHED,
            message: `a connection may be at ${this.o.maxTablesPerSocket} tables at most; leave one first`,
            replies: [],
          });
        }
        if (!existing) {
          conn.tables.set(tableId, { state: 'attaching', workerId: undefined, linkGeneration: 0, spectate });
          this.index.add(conn, tableId);
          await Promise.all([
            this.acquire({ kind: 'table', tableId }),
            this.acquire({ kind: 'user', userId: conn.userId }),
          ]);
        }
        const routed = await this.router.request(tableId, (requestId) =>
          attachFrame(requestId, conn, tableId, spectate),
        );
        if (routed.retried) this.metrics.notOwnerRetries.inc();
        const att = conn.tables.get(tableId);
        if (routed.answer.kind === 'ack') {
          if (conn.closed || !att) {
            // The socket left while the worker attached it: undo on the worker.
            this.router.notify(tableId, routed.workerId, (requestId) => detachFrame(requestId, conn, tableId));
            return 'ok';
          }
          att.state = 'attached';
          att.spectate = spectate;
          att.workerId = routed.workerId;
          att.linkGeneration = routed.linkGeneration;
          this.deliverReplies(conn, routed.answer.replies);
          // The ring moved while this attach was in flight: follow it.
          if (this.o.ring.ownerOf(tableId)?.id !== routed.workerId) this.scheduleReconcile();
          return 'ok';
        }
        if (!existing) this.dropAttachment(conn, tableId);
        return this.refuse(conn, frame, routed.answer);
      }
      case 'leave_table': {
        const att = conn.tables.get(tableId);
        if (!att)
          return this.refuse(conn, frame, {
            kind: 'error',
            code: ErrorCode.NOT_JOINED,
            message: 'not joined',
            replies: [],
          });
        this.dropAttachment(conn, tableId);
        const routed = await this.router.request(tableId, (requestId) => detachFrame(requestId, conn, tableId));
        return routed.answer.kind;
      }
      default: {
        // Every other table frame is a command for the table's worker; it must come from a
        // connection attached to that table.
        if (!conn.tables.has(tableId))
          return this.refuse(conn, frame, {
            kind: 'error',
            code: ErrorCode.NOT_JOINED,
            message: 'join the table first',
            replies: [],
          });
        const routed = await this.router.request(tableId, (requestId) => ({
          frame: {
            $case: 'command',
            command: {
              requestId,
              connectionId: conn.id,
              userId: conn.userId,
              tableId,
              commandJson: Buffer.from(JSON.stringify(frame)),
              traceContext: injectTraceContext(),
            },
          },
        }));
        if (routed.answer.kind === 'ack') {
          this.deliverReplies(conn, routed.answer.replies);
          return 'ok';
        }
        return this.refuse(conn, frame, routed.answer);
      }
    }
  }

  private refuse(conn: SocketData, frame: Exclude<ClientFrame, { type: 'ping' }>, answer: WorkerAnswer): string {
    // The worker's own error message carries the details (command_id, reason, legal range).
    const detailed = answer.kind === 'error' ? answer.replies.find((r) => r.connectionId === conn.id) : undefined;
    if (detailed && answer.kind === 'error' && isErrorCode(answer.code)) {
      this.metrics.frameErrors.inc({ code: answer.code });
      this.send(conn, detailed.messageJson);
      return answer.code;
    }
    let code: ErrorCode;
    let message: string;
    if (answer.kind === 'error') {
      code = isErrorCode(answer.code) ? answer.code : ErrorCode.INTERNAL;
      message = code === ErrorCode.INTERNAL ? 'internal error' : answer.message;
    } else {
      code = ErrorCode.UNAVAILABLE;
      message = 'the table is unavailable; retry shortly';
    }
    this.sendError(conn, { code, message, table_id: frame.table_id, ...cmd(frame) });
    return code;
  }

  private deliverReplies(conn: SocketData, replies: readonly { connectionId: string; messageJson: string }[]): void {
    for (const r of replies) if (r.connectionId === conn.id) this.send(conn, r.messageJson);
  }

  private dropAttachment(conn: SocketData, tableId: string): void {
    if (!conn.tables.delete(tableId)) return;
    this.index.remove(conn, tableId);
    this.release({ kind: 'table', tableId });
    this.release({ kind: 'user', userId: conn.userId });
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
    for (const [tableId, att] of [...conn.tables]) {
      this.dropAttachment(conn, tableId);
      this.router.notify(tableId, att.workerId, (requestId) => detachFrame(requestId, conn, tableId));
    }
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

  private sendError(conn: SocketData, error: Omit<ErrorMessage, 'type'>): void {
    this.metrics.frameErrors.inc({ code: error.code });
    const msg: ErrorMessage = { type: 'error', ...error };
    this.send(conn, JSON.stringify(msg));
  }

  private closeSocket(conn: SocketData, code: number, reason: string): void {
    const ws = conn.ws;
    if (conn.closed || !ws) return;
    this.metrics.closes.inc({ code: String(code) });
    ws.end(code, reason);
  }

  private channelName(ch: Channel): string {
    return ch.kind === 'table' ? this.keys.table(ch.tableId) : this.keys.user(ch.userId);
  }

  /** Holds a channel subscription while any attachment needs it; resolves once Redis confirmed it. */
  private acquire(ch: Channel): Promise<void> {
    const name = this.channelName(ch);
    const existing = this.subs.get(name);
    if (existing) {
      existing.count++;
      return existing.ready;
    }
    const sub: Subscription = { count: 1, ready: Promise.resolve(), off: undefined };
    sub.ready = this.o.subscriber
      .subscribe(name, (message) => this.onChannelMessage(ch, name, message))
      .then((off) => {
        sub.off = off;
        // Everyone left while SUBSCRIBE was in flight.
        if (this.subs.get(name) !== sub) void off();
      });
    this.subs.set(name, sub);
    return sub.ready;
  }

  private release(ch: Channel): void {
    const name = this.channelName(ch);
    const sub = this.subs.get(name);
    if (!sub) return;
    sub.count--;
    if (sub.count > 0) return;
    this.subs.delete(name);
    if (sub.off) void sub.off();
  }

  private onChannelMessage(ch: Channel, channel: string, text: string): void {
    let envelope;
    try {
      envelope = decodeEnvelope(channel, text);
    } catch (err) {
      this.o.logger.warn({ err, channel }, 'dropping invalid envelope');
      return;
    }
    const recipients = this.index.recipients(ch, envelope);
    if (recipients.length === 0) return;
    const payload = JSON.stringify(envelope.msg);
    for (const conn of recipients) {
      // Tests only (GATEWAY_TEST_DROP_RATE): lose deliveries on purpose, as pub/sub may.
      if (this.dropRate > 0 && Math.random() < this.dropRate) {
        this.metrics.dropped.inc();
        continue;
      }
      this.send(conn as SocketData, payload);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Ownership changes

  /**
   * Re-attaches connections whose table moved to another worker, or whose worker stream was
   * re-opened (the worker dropped them when the old stream ended). Each gets a fresh snapshot.
   */
  private reconcile(): void {
    if (this.stopping) return;
    for (const tableId of this.index.tableIds()) {
      const owner = this.o.ring.ownerOf(tableId);
      if (!owner) continue;
      const link = this.router.link(owner.id);
      if (link?.state !== 'open') continue;
      for (const c of this.index.at(tableId)) {
        const conn = c as SocketData;
        const att = conn.tables.get(tableId);
        if (!att || att.state !== 'attached') continue;
        if (att.workerId === owner.id && att.linkGeneration === link.generation) continue;
        void this.reattach(conn, tableId, att);
      }
    }
  }

  private scheduleReconcile(): void {
    if (this.reconcileTimer || this.stopping) return;
    this.reconcileTimer = setTimeout(() => {
      this.reconcileTimer = undefined;
      this.reconcile();
    }, RECONCILE_RETRY_MS);
    this.reconcileTimer.unref();
  }

  private async reattach(conn: SocketData, tableId: string, att: Attachment): Promise<void> {
    att.state = 'attaching';
    await tracer.startActiveSpan(
      'gateway.reattach',
      { kind: SpanKind.INTERNAL, attributes: { 'felt.table_id': tableId } },
      async (span) => {
        try {
          const routed = await this.router.request(tableId, (requestId) =>
            attachFrame(requestId, conn, tableId, att.spectate),
          );
          if (conn.tables.get(tableId) !== att) return;
          if (routed.answer.kind === 'ack') {
            att.state = 'attached';
            att.workerId = routed.workerId;
            att.linkGeneration = routed.linkGeneration;
            this.deliverReplies(conn, routed.answer.replies);
          } else if (routed.answer.kind === 'error' && routed.answer.code === ErrorCode.UNAVAILABLE) {
            // The table is coming up at its new owner (e.g. waiting for its hands to be saved):
            // keep the attachment and try again shortly.
            att.state = 'attached';
            this.scheduleReconcile();
          } else if (routed.answer.kind === 'error') {
            this.dropAttachment(conn, tableId);
            const code = isErrorCode(routed.answer.code) ? routed.answer.code : ErrorCode.INTERNAL;
            this.sendError(conn, { code, message: routed.answer.message, table_id: tableId });
          } else {
            // Unreachable for now: keep the attachment and try again shortly.
            att.state = 'attached';
            this.scheduleReconcile();
          }
        } finally {
          span.end();
        }
      },
    );
  }
}

/**
 * A member attaches with Attach; a spectator's join_table travels as a command, because the
 * Attach message has no field for the flag.
 */
function attachFrame(requestId: string, conn: ClientConnection, tableId: string, spectate: boolean): GatewayFrame {
  if (spectate) {
    return {
      frame: {
        $case: 'command',
        command: {
          requestId,
          connectionId: conn.id,
          userId: conn.userId,
          tableId,
          commandJson: Buffer.from(JSON.stringify({ type: 'join_table', table_id: tableId, spectate: true })),
          traceContext: injectTraceContext(),
        },
      },
    };
  }
  return {
    frame: {
      $case: 'attach',
      attach: {
        requestId,
        connectionId: conn.id,
        userId: conn.userId,
        userName: conn.name,
        tableId,
        traceContext: injectTraceContext(),
      },
    },
  };
}

function detachFrame(requestId: string, conn: ClientConnection, tableId: string): GatewayFrame {
  return {
    frame: {
      $case: 'detach',
      detach: { requestId, connectionId: conn.id, userId: conn.userId, tableId, traceContext: injectTraceContext() },
    },
  };
}

function cmd(frame: ClientFrame): { command_id?: string } {
  return 'command_id' in frame && frame.command_id !== undefined ? { command_id: frame.command_id } : {};
}
