import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { status, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import { extractTraceContext, type Logger, type RingView } from '@felt/platform';
import type { TournamentRequest, TournamentResponse } from '@felt/proto';
import { ErrorCode } from '@felt/protocol';
import { MailboxClosedError } from '../actor/mailbox.js';
import type { TableDirectory } from '../actor/table-directory.js';
import { TableError } from '../actor/table-error.js';
import { NotOwnerError } from '../ownership/table-ownership.js';
import {
  tournamentMessageSchema,
  tournamentMessageTarget,
  type TournamentMessage,
  type TournamentOrderResult,
  type TournamentReport,
} from '../tournament/contracts.js';

/** Where a report for a tournament this worker owns goes: its director (started here if need be). */
export interface DirectorInbox {
  report(report: TournamentReport): Promise<void>;
}

export interface TournamentRpcDeps {
  readonly workerId: string;
  readonly ring: RingView;
  readonly directory: TableDirectory;
  readonly directors: DirectorInbox | undefined;
  readonly logger: Logger;
  /** Counts each message answered by kind and result. */
  readonly count?: (kind: string, result: string) => void;
  /**
   * Whether the caller is a table worker (with mutual TLS: its certificate names one). A gateway's
   * certificate lets it play at tables, not give their director's orders.
   */
  readonly peerAllowed: (call: ServerUnaryCall<TournamentRequest, TournamentResponse>) => boolean;
}

const tracer = trace.getTracer('felt.table-worker');
const utf8 = new TextDecoder();

function refusal(code: string, message: string): TournamentResponse {
  return { result: { $case: 'error', error: { requestId: '', tableId: '', code, message } } };
}

/** The payload's kind, for the metric (a bounded label: anything unreadable is `invalid`). */
function kindOf(req: TournamentRequest): string {
  const known = ['seat', 'remove', 'told_moved', 'deal', 'info', 'close', 'hand_ended'];
  try {
    const kind = (JSON.parse(utf8.decode(req.payloadJson)) as { kind?: unknown }).kind;
    return typeof kind === 'string' && known.includes(kind) ? kind : 'invalid';
  } catch {
    return 'invalid';
  }
}

function done(result: TournamentOrderResult): TournamentResponse {
  return { result: { $case: 'done', done: { resultJson: Buffer.from(JSON.stringify(result)) } } };
}

/**
 * The `Tournament` RPC (docs/dev/contracts.md, "Tournament orders"): a director's order for a table
 * this worker owns, or a table's report for a tournament it owns. The payload is parsed here, against
 * the contract; the answer is the table's (or `{}` once the director has the report), a NotOwner for
 * a target another worker owns, or a typed refusal that changed nothing.
 */
export function createTournamentHandler(
  deps: TournamentRpcDeps,
): (call: ServerUnaryCall<TournamentRequest, TournamentResponse>, callback: sendUnaryData<TournamentResponse>) => void {
  const { workerId, ring, directory, logger } = deps;

  async function apply(message: TournamentMessage): Promise<TournamentResponse> {
    if (message.kind === 'hand_ended') {
      if (deps.directors === undefined) return refusal(ErrorCode.UNAVAILABLE, 'this worker runs no directors');
      await deps.directors.report(message);
      return done({});
    }
    const actor = await directory.get(message.table_id);
    try {
      return done((await actor.submit({ kind: 'tournament', order: message })).order ?? {});
    } catch (err) {
      // Evicted between the lookup and the submit: once more, at the table as it is now.
      if (!(err instanceof MailboxClosedError)) throw err;
      return done(
        (await (await directory.get(message.table_id)).submit({ kind: 'tournament', order: message })).order ?? {},
      );
    }
  }

  async function handle(req: TournamentRequest): Promise<TournamentResponse> {
    let message: TournamentMessage;
    try {
      message = tournamentMessageSchema.parse(JSON.parse(utf8.decode(req.payloadJson)));
    } catch {
      return refusal(ErrorCode.INVALID_FRAME, 'not a tournament order or report');
    }
    const target = tournamentMessageTarget(message);
    if (target !== req.targetId) return refusal(ErrorCode.INVALID_FRAME, 'target_id is not what the payload is for');
    let owner = ring.ownerOf(target);
    if (owner?.id !== workerId) {
      await ring.refresh();
      owner = ring.ownerOf(target);
    }
    if (owner?.id !== workerId) {
      return {
        result: {
          $case: 'notOwner',
          notOwner: { requestId: '', tableId: target, ownerWorkerId: owner?.id ?? '', ownerAddr: owner?.addr ?? '' },
        },
      };
    }
    try {
      return await apply(message);
    } catch (err) {
      if (err instanceof NotOwnerError) {
        const addr = err.ownerId ? (ring.member(err.ownerId)?.addr ?? '') : '';
        return {
          result: {
            $case: 'notOwner',
            notOwner: { requestId: '', tableId: target, ownerWorkerId: err.ownerId, ownerAddr: addr },
          },
        };
      }
      if (err instanceof TableError) return refusal(err.code, err.message);
      if (err instanceof MailboxClosedError)
        return refusal(ErrorCode.UNAVAILABLE, 'the table is moving; retry shortly');
      throw err;
    }
  }

  return (call, callback) => {
    if (!deps.peerAllowed(call)) {
      logger.warn({ event: 'tournament_rpc_refused' }, 'Tournament RPC refused: the caller is not a table worker');
      deps.count?.('unknown', 'denied');
      callback(
        { code: status.PERMISSION_DENIED, details: 'table workers only', name: 'TournamentRpc', message: '' },
        null,
      );
      return;
    }
    const parent = extractTraceContext(call.request.traceContext);
    void tracer.startActiveSpan(
      'tournament.message',
      { kind: SpanKind.SERVER, attributes: { 'felt.target_id': call.request.targetId, 'felt.worker_id': workerId } },
      parent,
      async (span) => {
        try {
          const response = await handle(call.request);
          const result = response.result;
          const outcome =
            result?.$case === 'error' ? result.error.code : result?.$case === 'notOwner' ? 'not_owner' : 'done';
          span.setAttribute('felt.result', outcome);
          deps.count?.(kindOf(call.request), outcome);
          callback(null, response);
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          logger.error({ err, targetId: call.request.targetId }, 'tournament message failed');
          callback(null, refusal(ErrorCode.INTERNAL, 'internal error'));
        } finally {
          span.end();
        }
      },
    );
  };
}
