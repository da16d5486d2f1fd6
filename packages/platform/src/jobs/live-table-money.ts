import type { Redis } from 'ioredis';
import { z } from 'zod';
import { redisKeys } from '../redis/keys.js';

/**
 * One table's stacks as its worker holds them: the top-level `money` section of the worker's
 * checkpoint (docs/dev/money-flows.md §7), which `npm run audit` (@felt/db `runAudit`) compares
 * with the escrows. Stacks of a hand in progress are the hand-start stacks.
 */
export interface LiveTableMoney {
  readonly lastHandNo: number;
  readonly seats: readonly {
    readonly userId: string;
    readonly stack: number;
    /** Top-ups added to the stack that no persisted hand or cash-out has reported yet. */
    readonly appliedTopUps: readonly { readonly id: string; readonly applied: number }[];
  }[];
}

/** The part of a worker's checkpoint the audit reads; everything else in it is the worker's business. */
const checkpointMoney = z.object({
  money: z.object({
    lastHandNo: z.number().int().nonnegative(),
    seats: z.array(
      z.object({
        userId: z.string(),
        stack: z.number().int().nonnegative(),
        appliedTopUps: z.array(z.object({ id: z.string(), applied: z.number().int().nonnegative() })).default([]),
      }),
    ),
  }),
});

/**
 * Reads live tables' stacks from the workers' checkpoints in Redis, for the money audit (`npm run
 * audit` and the persister's scheduled audit). A checkpoint that is missing, not JSON or without a
 * money section gives null, and `notes` says why (once for the checkpoints without money).
 */
export function liveTableMoneyReader(
  redis: Pick<Redis, 'get'>,
  prefix: string,
): { read(roomId: string): Promise<LiveTableMoney | null>; readonly notes: string[] } {
  const keys = redisKeys(prefix);
  const notes: string[] = [];
  let withoutMoney = 0;
  return {
    notes,
    async read(roomId) {
      const raw = await redis.get(keys.tableCheckpoint(roomId));
      if (raw === null) return null;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        notes.push(`room ${roomId}: checkpoint is not JSON`);
        return null;
      }
      const money = checkpointMoney.safeParse(parsed);
      if (!money.success) {
        if (withoutMoney++ === 0) notes.push('checkpoints carry no money section: live stacks not compared');
        return null;
      }
      return money.data.money;
    },
  };
}
