import type { z } from 'zod';
import type { CASH_OUT_REASONS, cashOutJobSchema } from '@felt/platform';
import type { CashOutReason } from '../generated/enums.js';
import type { TableCashOutRequest } from './cash-out.js';

// The hands queue's job contracts live in @felt/platform (packages/platform/src/jobs), where a table
// worker's domain takes them without the database package. They are re-exported here for the
// persister side and the tools that already read them from @felt/db.
export {
  CASH_OUT_REASONS,
  MoneyJobName,
  cashOutJobOptions,
  cashOutJobSchema,
  cashOutRequestId,
  VOID_REASONS,
  voidedHandJobOptions,
  voidedHandJobSchema,
  type CashOutJob,
  type CashOutJobReason,
  type PersistOutcome,
  type VoidReason,
  type VoidedHandJob,
} from '@felt/platform';

/** True only when A and B are the same union. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// A cash-out job's reasons are exactly the database enum's: a reason added to one must be added to both.
const reasonsMatch: Same<(typeof CASH_OUT_REASONS)[number], CashOutReason> = true;
void reasonsMatch;

/** A validated cash-out job as the ledger's request. */
export function cashOutRequestFromJob(job: z.output<typeof cashOutJobSchema>): TableCashOutRequest {
  return {
    requestId: job.request_id,
    roomId: job.room_id,
    userId: job.user_id,
    reason: job.reason,
    lastHandNo: job.last_hand_no,
    finalStack: BigInt(job.final_stack),
    topUpsApplied: job.top_ups_applied.map((t) => ({ id: t.id, applied: BigInt(t.applied) })),
  };
}
