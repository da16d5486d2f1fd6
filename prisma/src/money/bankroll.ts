import type { Db, PrismaClient } from '../client.js';
import { fundBankroll, ledgerTotals, type PostedLedgerTransaction } from '../ledger.js';
import { withTransaction } from '../transaction.js';

/**
 * The house bankroll (docs/operations.md, "Money"; chips are never created for play): bots buy in from chips an operator
 * funded, never from the grant source. `npm run bankroll -- --add N` funds it; `seatBot` stakes a bot
 * from it within its limits; a bot's cash-out goes back to it; the audit reports it.
 */
export interface BankrollReport {
  readonly balance: bigint;
  /** Funded by operators from the grant source. */
  readonly funded: bigint;
  /** Staked to bots' wallets for their buy-ins. */
  readonly staked: bigint;
  /** Returned by bots' cash-outs. */
  readonly returned: bigint;
  /** Staked in the last 24 hours (what the daily limit counts). */
  readonly stakedToday: bigint;
}

/** An operator funds the bankroll from the grant source, in its own transaction. Idempotent on `key`. */
export async function fundHouseBankroll(
  prisma: PrismaClient,
  amount: bigint,
  key: string,
  memo?: string,
): Promise<PostedLedgerTransaction> {
  return withTransaction(prisma, (tx) =>
    fundBankroll(tx, { amount, idempotencyKey: `bankroll:${key}`, ...(memo !== undefined ? { memo } : {}) }),
  );
}

/** The bankroll's balance and flows, and how many of its entries belong to no bankroll transaction. */
export async function bankrollFlows(db: Db): Promise<{ report: BankrollReport; otherEntries: number }> {
  const totals = await ledgerTotals(db);
  const [flows] = await db.$queryRaw<
    { funded: bigint | null; staked: bigint | null; returned: bigint | null; today: bigint | null; other: bigint }[]
  >`
    SELECT
      sum(e."amount") FILTER (WHERE t."kind" = 'bankroll_funding') AS "funded",
      -sum(e."amount") FILTER (WHERE t."kind" = 'bot_stake') AS "staked",
      sum(e."amount") FILTER (WHERE t."kind" = 'bot_return') AS "returned",
      -sum(e."amount") FILTER (WHERE t."kind" = 'bot_stake' AND t."created_at" > now() - interval '24 hours') AS "today",
      count(*) FILTER (WHERE t."kind" NOT IN ('bankroll_funding', 'bot_stake', 'bot_return')) AS "other"
    FROM "ledger_entries" e
    JOIN "ledger_accounts" a ON a."id" = e."account_id"
    JOIN "ledger_transactions" t ON t."id" = e."transaction_id"
    WHERE a."kind" = 'house_bankroll'`;
  const big = (x: bigint | null | undefined): bigint => BigInt(x ?? 0);
  return {
    report: {
      balance: totals.bankroll,
      funded: big(flows?.funded),
      staked: big(flows?.staked),
      returned: big(flows?.returned),
      stakedToday: big(flows?.today),
    },
    otherEntries: Number(flows?.other ?? 0),
  };
}
