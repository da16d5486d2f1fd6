import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Logger, RingView } from '@felt/platform';
import { ErrorCode, type ErrorMessage, type TableFrame } from '@felt/protocol';
import type { ChannelSubscriptions } from './channel-subscriptions.js';
import { clientAck, clientError, echoOf, internalError, type FrameEcho } from './client-answers.js';
import {
  ensureConnectionId,
  NO_TABLES,
  type Attachment,
  type ClientConnection,
  type ConnectionIndex,
} from './connection-index.js';
import type { GatewayMetrics } from './metrics.js';
import { attachFrame, commandFrame, detachFrame } from './worker-frames.js';
import type { WorkerAnswer, WorkerReply } from './worker-link.js';
import type { WorkerRouter } from './worker-router.js';

/** Retry interval for re-attachments that found the next owner unreachable. */
const RECONCILE_RETRY_MS = 500;

const tracer = trace.getTracer('felt.gateway');

/** A client socket as table traffic sees it. */
export interface TableClient extends ClientConnection {
  /** The socket is gone (closed by either side). */
  readonly closed: boolean;
}

export interface TableRequestsOptions<C extends TableClient> {
  readonly gatewayId: string;
  readonly ring: RingView;
  readonly router: WorkerRouter;
  readonly index: ConnectionIndex;
  readonly channels: ChannelSubscriptions<C>;
  readonly metrics: GatewayMetrics;
  readonly logger: Logger;
  /** Tables one socket may be attached to (GATEWAY_MAX_TABLES_PER_SOCKET). */
  readonly maxTablesPerSocket: number;
  /** Delivers one server message (JSON text) to one socket. */
  readonly send: (conn: C, text: string) => void;
  /** Delivers an `error` to one socket and counts it. */
  readonly sendError: (conn: C, error: ErrorMessage) => void;
}

/**
 * A socket's table traffic: join_table and leave_table attach and detach it at the table's worker,
 * every other table frame goes to that worker as a typed command, and each worker answer becomes
 * the client's reply. Attachments follow their table when the ring moves it or a worker stream
 * is re-opened.
 */
export class TableRequests<C extends TableClient> {
  private reconcileTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly o: TableRequestsOptions<C>) {}

  /** Forwards one validated table frame under its own span. */
  forward(conn: C, frame: TableFrame): Promise<void> {
    return tracer.startActiveSpan(
      `gateway.${frame.type}`,
      { kind: SpanKind.SERVER, attributes: { 'felt.table_id': frame.table_id, 'felt.gateway_id': this.o.gatewayId } },
      async (span) => {
        const started = performance.now();
        let result = 'ok';
        try {
          result = await this.handle(conn, frame);
        } catch (err) {
          result = ErrorCode.INTERNAL;
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          this.o.logger.error({ err, type: frame.type }, 'frame handling failed');
          this.o.sendError(conn, internalError(echoOf(frame)));
        } finally {
          span.setAttribute('felt.result', result);
          span.end();
          this.o.metrics.requestSeconds.observe({ type: frame.type, result }, (performance.now() - started) / 1000);
        }
      },
    );
  }

  /** The socket closed: its attachments go, and each table's worker is told. */
  detachAll(conn: C): void {
    for (const [tableId, att] of [...conn.tables]) {
      this.dropAttachment(conn, tableId);
      this.o.router.notify(tableId, att.workerId, (requestId) => detachFrame(requestId, conn, tableId));
    }
  }

  /**
   * Re-attaches connections whose table moved to another worker, or whose worker stream was
   * re-opened (the worker dropped them when the old stream ended). Each gets a fresh snapshot.
   */
  reconcile(): void {
    if (this.stopped) return;
    for (const tableId of this.o.index.tableIds()) {
      const owner = this.o.ring.ownerOf(tableId);
      if (!owner) continue;
      const link = this.o.router.link(owner.id);
      if (link?.state !== 'open') continue;
      for (const c of this.o.index.at(tableId)) {
        // The index holds only this gateway's sockets.
        const conn = c as C;
        const att = conn.tables.get(tableId);
        if (!att || att.state !== 'attached') continue;
        if (att.workerId === owner.id && att.linkGeneration === link.generation) continue;
        void this.reattach(conn, tableId, att);
      }
    }
  }

  /**
   * The table's worker built it again without the attachments it had (its checkpoint was lost with
   * Redis's data): every connection here attached to it attaches again, at the ring's owner, and
   * gets a fresh snapshot. Attachments still in flight reach the table as it is now.
   */
  reattachTable(tableId: string): void {
    if (this.stopped) return;
    let count = 0;
    for (const c of this.o.index.at(tableId)) {
      // The index holds only this gateway's sockets.
      const conn = c as C;
      const att = conn.tables.get(tableId);
      if (!att || att.state !== 'attached') continue;
      count++;
      void this.reattach(conn, tableId, att);
    }
    this.o.logger.info({ event: 'table_reset_heard', tableId, connections: count }, 'table rebuilt: re-attaching');
  }

  stop(): void {
    this.stopped = true;
    if (this.reconcileTimer) clearTimeout(this.reconcileTimer);
    this.reconcileTimer = undefined;
  }

  /** Returns a result label for metrics and the span. */
  private async handle(conn: C, frame: TableFrame): Promise<string> {
    const tableId = frame.table_id;
    switch (frame.type) {
      case 'join_table':
        return this.join(conn, tableId, frame.spectate === true, echoOf(frame));
      case 'leave_table': {
        if (!conn.tables.has(tableId))
          return this.refuse(conn, echoOf(frame), { kind: 'error', code: ErrorCode.NOT_JOINED, message: 'not joined' });
        this.dropAttachment(conn, tableId);
        const routed = await this.o.router.request(tableId, (requestId) => detachFrame(requestId, conn, tableId));
        return routed.answer.kind;
      }
      default: {
        // Every other table frame is a command for the table's worker; it must come from a
        // connection attached to that table.
        if (!conn.tables.has(tableId))
          return this.refuse(conn, echoOf(frame), {
            kind: 'error',
            code: ErrorCode.NOT_JOINED,
            message: 'join the table first',
          });
        const routed = await this.o.router.request(tableId, (requestId) => commandFrame(requestId, conn, frame));
        if (routed.answer.kind !== 'ack') return this.refuse(conn, echoOf(frame), routed.answer);
        this.deliverReplies(conn, routed.answer.replies);
        const ack = clientAck(frame, routed.answer.atTableSeq);
        if (ack !== null) this.o.send(conn, JSON.stringify(ack));
        return 'ok';
      }
    }
  }

  private async join(conn: C, tableId: string, spectate: boolean, echo: FrameEcho): Promise<string> {
    const existing = conn.tables.get(tableId);
    // Attachments still in flight count, so a burst of joins cannot pass the cap.
    if (!existing && conn.tables.size >= this.o.maxTablesPerSocket) {
      return this.refuse(conn, echo, {
        kind: 'error',
        code: ErrorCode.LIMIT_REACHED,
        message: `a connection may be at ${this.o.maxTablesPerSocket} tables at most; leave one first`,
      });
    }
    if (!existing) {
      ensureConnectionId(conn);
      if (conn.tables === NO_TABLES) conn.tables = new Map();
      conn.tables.set(tableId, { state: 'attaching', workerId: undefined, linkGeneration: 0, spectate });
      this.o.index.add(conn, tableId);
      await Promise.all([
        this.o.channels.acquire({ kind: 'table', tableId }),
        this.o.channels.acquire({ kind: 'user', tableId, userId: conn.userId }),
      ]);
    }
    const routed = await this.o.router.request(tableId, (requestId) => attachFrame(requestId, conn, tableId, spectate));
    if (routed.retried) this.o.metrics.notOwnerRetries.inc();
    const att = conn.tables.get(tableId);
    if (routed.answer.kind === 'ack') {
      if (conn.closed || !att) {
        // The socket left while the worker attached it: undo on the worker.
        this.o.router.notify(tableId, routed.workerId, (requestId) => detachFrame(requestId, conn, tableId));
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
    return this.refuse(conn, echo, routed.answer);
  }

  /** Answers the frame with `error`; returns its code as the result label. */
  private refuse(conn: C, echo: FrameEcho, answer: Exclude<WorkerAnswer, { kind: 'ack' }>): string {
    const error = clientError(answer, echo);
    this.o.sendError(conn, error);
    return error.code;
  }

  private deliverReplies(conn: C, replies: readonly WorkerReply[]): void {
    for (const r of replies) if (r.connectionId === conn.id) this.o.send(conn, r.messageJson);
  }

  private dropAttachment(conn: C, tableId: string): void {
    if (!conn.tables.delete(tableId)) return;
    if (conn.tables.size === 0) conn.tables = NO_TABLES;
    this.o.index.remove(conn, tableId);
    this.o.channels.release({ kind: 'table', tableId });
    this.o.channels.release({ kind: 'user', tableId, userId: conn.userId });
  }

  private scheduleReconcile(): void {
    if (this.reconcileTimer || this.stopped) return;
    this.reconcileTimer = setTimeout(() => {
      this.reconcileTimer = undefined;
      this.reconcile();
    }, RECONCILE_RETRY_MS);
    this.reconcileTimer.unref();
  }

  private async reattach(conn: C, tableId: string, att: Attachment): Promise<void> {
    att.state = 'attaching';
    await tracer.startActiveSpan(
      'gateway.reattach',
      { kind: SpanKind.INTERNAL, attributes: { 'felt.table_id': tableId } },
      async (span) => {
        try {
          const routed = await this.o.router.request(tableId, (requestId) =>
            attachFrame(requestId, conn, tableId, att.spectate),
          );
          if (conn.tables.get(tableId) !== att) return;
          const answer = routed.answer;
          if (answer.kind === 'ack') {
            att.state = 'attached';
            att.workerId = routed.workerId;
            att.linkGeneration = routed.linkGeneration;
            this.deliverReplies(conn, answer.replies);
            // The ring moved while this re-attach was in flight (the reconcile of that change saw
            // it attaching and passed it by): follow it, or the connection stays at a worker that
            // gave the table up and gets no more of its events.
            if (this.o.ring.ownerOf(tableId)?.id !== routed.workerId) this.scheduleReconcile();
          } else if (answer.kind === 'error' && answer.code !== ErrorCode.UNAVAILABLE) {
            this.dropAttachment(conn, tableId);
            this.o.sendError(conn, clientError(answer, { table_id: tableId }));
          } else {
            // Unreachable for now, or the table is coming up at its new owner (e.g. waiting for its
            // hands to be saved): keep the attachment and try again shortly.
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
