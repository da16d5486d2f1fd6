import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { status, type ServerDuplexStream } from '@grpc/grpc-js';
import {
  extractTraceContext,
  ReplicationLagError,
  type Logger,
  type RingView,
  type WorkerRegistry,
} from '@felt/platform';
import { type GatewayFrame, HealthResponse_Status, type TableServiceServer, type WorkerFrame } from '@felt/proto';
import { ErrorCode } from '@felt/protocol';
import { MailboxClosedError } from '../actor/mailbox.js';
import { isDrainToken } from '../config.js';
import { TableActor } from '../actor/table-actor.js';
import type { TableCommand, TableOutcome } from '../actor/table-command.js';
import type { TableDirectory } from '../actor/table-directory.js';
import { notJoined, TableError } from '../actor/table-error.js';
import type { WorkerMetrics } from '../metrics.js';
import { NotOwnerError } from '../ownership/table-ownership.js';
import { toTableRequest, type TableRequest } from './gateway-requests.js';
import { createTournamentHandler, type DirectorInbox, type TournamentRpcDeps } from './tournament-rpc.js';
import { ackFrame, errorFrame, notOwnerFrame, replyFrame, welcomeFrame } from './worker-frames.js';

export interface TableServiceDeps {
  readonly workerId: string;
  readonly directory: TableDirectory;
  readonly ring: RingView;
  readonly registry: WorkerRegistry;
  readonly metrics: WorkerMetrics;
  readonly logger: Logger;
  /** Filled with the ids of the gateway streams open now (the directory re-attaches only on these). */
  readonly openStreams?: Set<string>;
  /** The Drain RPC's token (the one the ops port's /drain takes); the RPC is refused without it. */
  readonly drainToken: string;
  /** The tournament directors this worker runs (reports for them arrive by the Tournament RPC). */
  readonly directors?: DirectorInbox;
  /** Whether a Tournament RPC caller is a table worker (default: anyone, as on a plaintext link). */
  readonly peerAllowed?: TournamentRpcDeps['peerAllowed'];
}

const tracer = trace.getTracer('felt.table-worker');

/**
 * The worker side of the gateway contract. Each Connect stream is one gateway; requests on it are
 * checked against this worker's ring, routed to the table's actor, and answered with the replies
 * the request produced for its connection, then an ack; or with a typed error alone.
 */
export function createTableService(deps: TableServiceDeps): TableServiceServer {
  const { workerId, directory, ring, registry, metrics, logger } = deps;
  const openStreams = deps.openStreams ?? new Set<string>();

  /**
   * An attach or a client command brings a table to life here (under its lease); a detach for a
   * table that is not live has nothing to act on, and a resync needs an attachment first.
   */
  async function actorFor(tableId: string, command: TableCommand): Promise<TableActor | TableOutcome> {
    const live = directory.peek(tableId);
    if (live) return live;
    if (command.kind === 'attach' || command.kind === 'client') return directory.get(tableId);
    if (command.kind === 'resync') {
      // A connection the table had when it was last saved (its gateway still counts it attached,
      // but the table is live nowhere: its last owner died or gave it up): the table comes back here.
      if (await directory.knewConnection(tableId, command.connectionId, command.userId)) return directory.get(tableId);
      throw notJoined(tableId);
    }
    return { tableSeq: 0, replies: [] };
  }

  /**
   * A command from a connection the gateway holds as attached, that this table's actor does not
   * know: the table moved here (a takeover, a ring change, a lost lease) before the gateway
   * re-attached it (or the table was taken again after a lost lease). The connection is attached
   * now, as a member (a spectator is attached again by its gateway, with spectate); its reply is a
   * fresh snapshot, which is the resync the client needs. A resync does this only for a table live
   * here.
   */
  function attachImplicitly(
    actor: TableActor,
    command: Extract<TableCommand, { kind: 'client' | 'resync' }>,
    streamId: string,
  ): Promise<TableOutcome> {
    return actor.submit({ kind: 'attach', connectionId: command.connectionId, streamId, userId: command.userId });
  }

  async function run(
    tableId: string,
    command: TableCommand,
    streamId: string,
    onImplicitAttach: () => void,
  ): Promise<TableOutcome> {
    for (let attempt = 0; ; attempt++) {
      const target = await actorFor(tableId, command);
      if (!(target instanceof TableActor)) return target;
      try {
        return await target.submit(command);
      } catch (err) {
        // The actor was evicted (idle sweep, lost lease) between lookup and submit: look it up
        // again, once.
        if (err instanceof MailboxClosedError && attempt === 0) continue;
        if (
          attempt === 0 &&
          err instanceof TableError &&
          err.code === ErrorCode.NOT_JOINED &&
          (command.kind === 'client' || command.kind === 'resync')
        ) {
          let attached: TableOutcome;
          try {
            attached = await attachImplicitly(target, command, streamId);
          } catch (attachErr) {
            // Not a member (a spectator must attach with spectate first): the original refusal stands.
            if (attachErr instanceof TableError && attachErr.code === ErrorCode.NOT_MEMBER) throw err;
            throw attachErr;
          }
          onImplicitAttach();
          logger.info(
            { event: 'implicit_attach', tableId, connectionId: command.connectionId },
            'connection attached with its command',
          );
          const out = await target.submit(command);
          return { ...out, replies: [...attached.replies, ...out.replies] };
        }
        throw err;
      }
    }
  }

  const connect = (call: ServerDuplexStream<GatewayFrame, WorkerFrame>): void => {
    const streamId = randomUUID();
    let gatewayId = 'unknown';
    let open = true;
    const touched = new Set<string>();
    openStreams.add(streamId);
    metrics.gatewayStreams.inc();

    const write = (frame: WorkerFrame): void => {
      if (open) call.write(frame);
    };

    const handle = async (req: TableRequest): Promise<void> => {
      const started = performance.now();
      const parent = extractTraceContext(req.traceContext);
      await tracer.startActiveSpan(
        `table.${req.type}`,
        { kind: SpanKind.SERVER, attributes: { 'felt.table_id': req.tableId, 'felt.worker_id': workerId } },
        parent,
        async (span) => {
          let result = 'ok';
          try {
            let owner = ring.ownerOf(req.tableId);
            if (owner?.id !== workerId) {
              // The gateway's ring may be newer than ours (a member just joined or left): reread
              // before sending it elsewhere.
              await ring.refresh();
              owner = ring.ownerOf(req.tableId);
            }
            if (owner?.id !== workerId) {
              result = 'not_owner';
              write(notOwnerFrame(req.requestId, req.tableId, { id: owner?.id ?? '', addr: owner?.addr ?? '' }));
              return;
            }
            const outcome = await run(req.tableId, req.command, streamId, () => touched.add(req.tableId));
            if (req.type === 'attach') touched.add(req.tableId);
            const answer = outcome.result;
            if (answer?.ok === false) {
              // A refused command changed nothing and has nothing to reply: the error is the answer.
              result = answer.code;
              write(errorFrame(req.requestId, req.tableId, answer));
              return;
            }
            for (const reply of outcome.replies) write(replyFrame(req.requestId, req.tableId, outcome.tableSeq, reply));
            write(ackFrame(req.requestId, req.tableId, answer?.atTableSeq ?? outcome.tableSeq));
          } catch (err) {
            if (err instanceof NotOwnerError) {
              // Another worker holds the table's lease, this one lost it, or it is draining.
              result = 'not_owner';
              const addr = err.ownerId ? (ring.member(err.ownerId)?.addr ?? '') : '';
              write(notOwnerFrame(req.requestId, req.tableId, { id: err.ownerId, addr }));
              return;
            }
            if (err instanceof TableError) {
              result = err.code;
              write(errorFrame(req.requestId, req.tableId, { code: err.code, message: err.message, ...err.details }));
              return;
            }
            if (err instanceof ReplicationLagError) {
              // Redis is failing over (or its replicas lag): the command was undone; the client may retry.
              result = ErrorCode.UNAVAILABLE;
              logger.warn(
                { err, tableId: req.tableId, type: req.type, event: 'checkpoint_unconfirmed' },
                'checkpoint not replicated in time',
              );
              write(
                errorFrame(req.requestId, req.tableId, {
                  code: ErrorCode.UNAVAILABLE,
                  message: 'the table could not save this in time; retry shortly',
                }),
              );
              return;
            }
            result = ErrorCode.INTERNAL;
            span.recordException(err as Error);
            span.setStatus({ code: SpanStatusCode.ERROR });
            logger.error({ err, tableId: req.tableId, type: req.type, gatewayId }, 'table request failed');
            write(errorFrame(req.requestId, req.tableId, { code: ErrorCode.INTERNAL, message: 'internal error' }));
          } finally {
            span.setAttribute('felt.result', result);
            span.end();
            metrics.commands.inc({ type: req.type, result });
            metrics.commandSeconds.observe({ type: req.type }, (performance.now() - started) / 1000);
          }
        },
      );
    };

    call.on('data', (frame: GatewayFrame) => {
      if (frame.frame?.$case === 'hello') {
        gatewayId = frame.frame.hello.gatewayId;
        logger.info({ event: 'gateway_connected', gatewayId, streamId }, 'gateway stream open');
        write(welcomeFrame(workerId));
        return;
      }
      const req = toTableRequest(frame.frame, streamId);
      if (req === null) return;
      if ('unreadable' in req) {
        const { requestId, tableId, message } = req.unreadable;
        metrics.commands.inc({ type: 'command', result: ErrorCode.INVALID_FRAME });
        write(errorFrame(requestId, tableId, { code: ErrorCode.INVALID_FRAME, message }));
        return;
      }
      handle(req).catch((err: unknown) => logger.error({ err }, 'request handler crashed'));
    });

    let gone = false;
    const onGone = (why: string): void => {
      if (gone) return;
      gone = true;
      open = false;
      openStreams.delete(streamId);
      metrics.gatewayStreams.dec();
      logger.info(
        { event: 'gateway_disconnected', gatewayId, streamId, why, tables: touched.size },
        'gateway stream closed',
      );
      // Every connection that came over this stream is gone with it.
      for (const tableId of touched) {
        directory
          .peek(tableId)
          ?.submit({ kind: 'stream_closed', streamId })
          .catch((err: unknown) => {
            if (!(err instanceof MailboxClosedError)) logger.error({ err, tableId }, 'stream_closed failed');
          });
      }
    };
    call.on('end', () => {
      onGone('end');
      call.end();
    });
    call.on('cancelled', () => onGone('cancelled'));
    call.on('error', (err: Error) => {
      logger.warn({ err, gatewayId }, 'gateway stream error');
      onGone('error');
    });
    call.on('close', () => onGone('close'));
  };

  return {
    connect,
    tournament: createTournamentHandler({
      workerId,
      ring,
      directory,
      directors: deps.directors,
      logger,
      peerAllowed: deps.peerAllowed ?? (() => true),
      count: (kind, result) => metrics.tournamentMessages.inc({ kind, result }),
    }),
    health: (_call, callback) => {
      callback(null, {
        workerId,
        status: registry.isDraining ? HealthResponse_Status.STATUS_DRAINING : HealthResponse_Status.STATUS_SERVING,
        liveTables: directory.size,
      });
    },
    drain: (call, callback) => {
      if (!isDrainToken(call.request.token, deps.drainToken)) {
        logger.warn({ event: 'drain_refused' }, 'Drain RPC refused: wrong or missing drain token');
        callback(
          {
            code: status.PERMISSION_DENIED,
            details: 'drain token required',
            name: 'DrainError',
            message: 'drain token required',
          },
          null,
        );
        return;
      }
      registry.setDraining(true).then(
        async () => {
          logger.info({ event: 'draining' }, 'draining: leaving the ring of owners');
          await ring.refresh();
          callback(null, { workerId, draining: true });
        },
        (err: unknown) => {
          logger.error({ err }, 'drain failed');
          callback(
            {
              code: status.UNAVAILABLE,
              details: 'registry unavailable',
              name: 'DrainError',
              message: 'registry unavailable',
            },
            null,
          );
        },
      );
    },
  };
}
