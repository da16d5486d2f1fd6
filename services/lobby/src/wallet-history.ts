import { accountKey, LedgerTxKind, Prisma, walletAccount, type PrismaClient } from '@felt/db';
import { ApiErrorCode, LobbyError } from './errors.js';
import { WALLET_ENTRY_KINDS, type WalletEntryKind, type WalletHistoryPage } from '@felt/protocol';

// The contract's kinds are the ledger's, no more and no fewer: a kind added to either side alone fails
// to compile here.
const everyLedgerKind: Readonly<Record<LedgerTxKind, WalletEntryKind>> = LedgerTxKind;
void everyLedgerKind;
WALLET_ENTRY_KINDS satisfies readonly LedgerTxKind[];

/** The largest ledger_entries.seq (a Postgres bigint). */
const MAX_SEQ = (1n << 63n) - 1n;

/** The cursor is the seq of the last entry served, opaque to clients. */
function encodeCursor(seq: bigint): string {
  return Buffer.from(JSON.stringify({ s: seq.toString() })).toString('base64url');
}

function decodeCursor(cursor: string): bigint {
  try {
    const raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown };
    if (typeof raw.s !== 'string' || !/^[1-9][0-9]{0,18}$/.test(raw.s)) throw new Error('shape');
    const seq = BigInt(raw.s);
    if (seq > MAX_SEQ) throw new Error('range');
    return seq;
  } catch {
    throw new LobbyError(ApiErrorCode.INVALID_REQUEST, 'that cursor is not one this API gave out');
  }
}

/**
 * One page of the user's wallet entries, newest first, below `before` (a seq), at most `limit`
 * rows, each with its resulting balance. Exported for the test that checks its plan.
 */
export function walletPageQuery(userId: string, before: bigint, limit: number): Prisma.Sql {
  const key = accountKey(walletAccount(userId));
  // The account id goes in as a scalar subquery, not a join, so that the planner walks the
  // (account_id, seq) index backwards and stops after the page instead of sorting the account's
  // whole history. `newer` sums the entries after the page (the pages already served): an index
  // range scan that grows with the depth, not with the whole history.
  return Prisma.sql`
    WITH "acct" AS (
      SELECT "id", "balance" FROM "ledger_accounts" WHERE "key" = ${key}
    ), "page" AS (
      SELECT e."id", e."seq", e."amount", e."created_at", e."transaction_id"
      FROM "ledger_entries" e
      WHERE e."account_id" = (SELECT "id" FROM "acct") AND e."seq" < ${before}
      ORDER BY e."seq" DESC
      LIMIT ${limit}
    ), "newer" AS (
      SELECT coalesce(sum(e."amount"), 0) AS "total"
      FROM "ledger_entries" e
      WHERE e."account_id" = (SELECT "id" FROM "acct") AND e."seq" >= ${before}
    )
    SELECT p."id"::text AS "id", p."seq", p."amount", p."created_at", t."kind"::text AS "kind",
      t."room_id"::text AS "room_id", r."code" AS "room_code",
      a."balance" - n."total"
        - coalesce(sum(p."amount") OVER (ORDER BY p."seq" DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
        AS "balance_after"
    FROM "page" p
    CROSS JOIN "acct" a
    CROSS JOIN "newer" n
    JOIN "ledger_transactions" t ON t."id" = p."transaction_id"
    LEFT JOIN "rooms" r ON r."id" = t."room_id"
    ORDER BY p."seq" DESC`;
}

interface Row {
  id: string;
  seq: bigint;
  amount: bigint;
  created_at: Date;
  kind: LedgerTxKind;
  room_id: string | null;
  room_code: string | null;
  balance_after: bigint;
}

/**
 * Every movement of a player's wallet account (grants, buy-ins, top-ups, cash-outs, refunds),
 * newest first. The account is always the caller's own (`wallet:<userId>`): nothing in the request
 * names another. Pages are keyset on ledger_entries (account_id, seq), which orders an account's
 * entries as they were applied, so each entry's resulting balance is the account's balance less the
 * entries after it; one statement reads both, on one snapshot.
 */
export class WalletHistory {
  constructor(private readonly prisma: PrismaClient) {}

  async list(userId: string, pageSize: number, cursor?: string): Promise<WalletHistoryPage> {
    const before = cursor === undefined ? MAX_SEQ : decodeCursor(cursor);
    const rows = await this.prisma.$queryRaw<Row[]>(walletPageQuery(userId, before, pageSize + 1));
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      entries: page.map((r) => ({
        id: r.id,
        at: r.created_at.toISOString(),
        kind: r.kind,
        amount: Number(r.amount),
        balance: Number(r.balance_after),
        room: r.room_id !== null ? { session_id: r.room_id, code: r.room_code ?? '' } : null,
      })),
      next: rows.length > pageSize && last ? encodeCursor(BigInt(last.seq)) : null,
    };
  }
}
