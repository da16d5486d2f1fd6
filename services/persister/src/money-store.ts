import {
  CashOutConflictError,
  EscrowMismatchError,
  HandConflictError,
  HandNotReadyError,
  HandRecordInvalidError,
  cashOutRequestFromJob,
  normalizeHandJob,
  persistHand,
  persistHands,
  persistVoidedHand,
  requestCashOut,
  withTransaction,
  type CashOutOutcome,
  type DbError,
  type NormalizedHand,
  type PrismaClient,
  type PersistResult,
  type PgPool,
  type Prisma,
  type VoidedHandResult,
} from '@felt/db';
import { cashOutJobSchema } from '@felt/platform';

/** `superseded`: left behind by a table rebuilt from the room rows, never written (@felt/db PersistResult). */
export type HandWriteResult = 'written' | 'duplicate' | 'superseded';

export interface HandWrite {
  readonly result: HandWriteResult;
  readonly handId: string;
  readonly roomId: string;
  readonly handNo: number;
  readonly endedAt: Date;
  /** Cash-outs this hand released (paid, or refused as mismatched). */
  readonly cashOuts: readonly CashOutOutcome[];
}

/** What became of one hand of a batch: written or replayed, or the error writeHand would throw. */
export type HandWriteOutcome =
  { readonly ok: true; readonly write: HandWrite } | { readonly ok: false; readonly error: unknown };

/**
 * Where the persister writes what tables report. Both calls are idempotent: BullMQ retries and
 * replays jobs, and a worker re-sends after failover.
 *
 * Errors are typed: HandNotReadyError (an earlier hand of the room is missing: try later, it is not
 * a failure), `PermanentJobError` (the job can never succeed as it is; recorded as an incident), or
 * anything else (transient: retry with backoff).
 */
export interface MoneyStore {
  writeHand(job: unknown): Promise<HandWrite>;
  /**
   * Several hand jobs at once, each with the outcome writeHand would give it (its errors typed the
   * same way). A store without it gets its hands one by one.
   */
  writeHands?(jobs: readonly unknown[]): Promise<HandWriteOutcome[]>;
  /** A voided hand: a `hands` row marked voided, no ledger entries (it takes no hand number). */
  writeVoided(job: unknown): Promise<VoidedHandResult>;
  cashOut(job: unknown): Promise<CashOutOutcome>;
  /** The room's hand cursor: hands 1..n are persisted. */
  lastHandNo(roomId: string): Promise<number>;
}

/** A job that retrying cannot fix; `code` is the @felt/db error code. */
export class PermanentJobError extends Error {
  readonly code: string;
  constructor(cause: DbError) {
    super(cause.message, { cause });
    this.name = 'PermanentJobError';
    this.code = cause.code;
  }
}

function permanent(err: unknown): boolean {
  return (
    err instanceof HandRecordInvalidError ||
    err instanceof HandConflictError ||
    err instanceof EscrowMismatchError ||
    err instanceof CashOutConflictError
  );
}

function incidentOf(err: DbError): { kind: string; details: Prisma.InputJsonObject } {
  if (err instanceof EscrowMismatchError) {
    return {
      kind: 'escrow_mismatch',
      details: {
        mismatches: err.mismatches.map((m) => ({
          userId: m.userId,
          seat: m.seat,
          escrow: m.escrow.toString(),
          expected: m.expected.toString(),
        })),
      },
    };
  }
  if (err instanceof HandConflictError)
    return { kind: 'hand_conflict', details: { handNo: err.handNo, reason: err.reason } };
  if (err instanceof HandRecordInvalidError) return { kind: 'invalid_hand', details: { problems: [...err.problems] } };
  if (err instanceof CashOutConflictError) return { kind: 'cash_out_conflict', details: { reason: err.reason } };
  return { kind: err.code, details: { message: err.message } };
}

function handWrite(hand: NormalizedHand, out: PersistResult): HandWrite {
  return {
    result: out.result,
    handId: hand.handId,
    roomId: hand.roomId,
    handNo: hand.handNo,
    endedAt: hand.endedAt,
    cashOuts: out.cashOuts,
  };
}

export class PrismaMoneyStore implements MoneyStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => Date = () => new Date(),
    /**
     * A pg pool on the same database (@felt/db createPgPool) for the hands' hot statements, which
     * cost about a quarter of the CPU there that they cost through Prisma. None: Prisma only.
     */
    private readonly pool?: PgPool,
  ) {}

  async writeHand(job: unknown): Promise<HandWrite> {
    try {
      const hand = normalizeHandJob(job);
      return handWrite(hand, await persistHand(this.prisma, hand, { now: this.now }));
    } catch (err) {
      throw await this.classify(err, job);
    }
  }

  async writeHands(jobs: readonly unknown[]): Promise<HandWriteOutcome[]> {
    const outcomes: (HandWriteOutcome | undefined)[] = [];
    const valid: { hand: NormalizedHand; i: number }[] = [];
    for (const [i, job] of jobs.entries()) {
      try {
        valid.push({ hand: normalizeHandJob(job), i });
      } catch (err) {
        outcomes[i] = { ok: false, error: await this.classify(err, job) };
      }
    }
    const written = await persistHands(
      this.prisma,
      valid.map((v) => v.hand),
      { now: this.now, ...(this.pool ? { pool: this.pool } : {}) },
    );
    for (const [k, out] of written.entries()) {
      const { i } = valid[k]!;
      outcomes[i] = out.ok
        ? { ok: true, write: handWrite(out.hand, out.result) }
        : { ok: false, error: await this.classify(out.error, jobs[i]) };
    }
    return jobs.map((_, i) => outcomes[i] ?? { ok: false, error: new Error('no outcome') });
  }

  async writeVoided(job: unknown): Promise<VoidedHandResult> {
    try {
      return await persistVoidedHand(this.prisma, job);
    } catch (err) {
      throw await this.classify(err, job);
    }
  }

  async lastHandNo(roomId: string): Promise<number> {
    const room = await this.prisma.room.findUnique({ where: { id: roomId }, select: { lastHandNo: true } });
    return room?.lastHandNo ?? 0;
  }

  async cashOut(job: unknown): Promise<CashOutOutcome> {
    const parsed = cashOutJobSchema.safeParse(job);
    if (!parsed.success) {
      const id = (job as { request_id?: unknown } | null)?.request_id;
      throw await this.classify(
        new HandRecordInvalidError(
          `cash-out ${String(id)}`,
          parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
        ),
        job,
      );
    }
    const req = cashOutRequestFromJob(parsed.data);
    try {
      return await withTransaction(this.prisma, (tx) => requestCashOut(tx, req, this.now()));
    } catch (err) {
      throw await this.classify(err, job);
    }
  }

  /** Permanent refusals are recorded as incidents (in their own transaction) for the audit. */
  private async classify(err: unknown, job: unknown): Promise<unknown> {
    if (!permanent(err)) return err;
    const e = err as DbError;
    const data = (typeof job === 'object' && job !== null ? job : {}) as Record<string, unknown>;
    const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
    const uuid = (v: unknown): string | null =>
      typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v) ? v : null;
    const { kind, details } = incidentOf(e);
    await this.prisma.moneyIncident
      .create({
        data: {
          kind,
          roomId: uuid(data.room_id),
          userId: uuid(data.user_id),
          handId: str(data.hand_id),
          requestId: str(data.request_id),
          details: { ...details, message: e.message },
        },
      })
      .catch(() => undefined);
    return new PermanentJobError(e);
  }
}

export { HandNotReadyError };
