import type { LiveTableMoney } from '@felt/platform';
import { Prisma, type Db, type PrismaClient } from '../client.js';
import { ledgerTotals } from '../ledger.js';
import { handLedgerKeys } from './persist-hand.js';
import { bankrollFlows, type BankrollReport } from './bankroll.js';
import { TOURNAMENT_ADD_ON_COST_SQL, tournamentPoolPaidIn } from './tournament.js';

/**
 * The operator's reconciliation (`npm run audit`; docs/operations.md, "Money"). Every check reads Postgres directly
 * and recomputes what it checks from a second source where one exists: escrows from the hand
 * history, hand money from its players and pots, ledger postings from the hands.
 */

export const AuditIssueCode = {
  UNBALANCED_TRANSACTION: 'unbalanced_transaction',
  NEGATIVE_BALANCE: 'negative_balance',
  BALANCE_DRIFT: 'balance_drift',
  SYSTEM_IMBALANCE: 'system_imbalance',
  /** Practice wallets + practice rooms' escrows differ from the practice chips ever handed out. */
  PRACTICE_IMBALANCE: 'practice_imbalance',
  /** A ledger transaction moved chips between practice and real accounts (the trigger was bypassed). */
  PRACTICE_LEAK: 'practice_leak',
  ESCROW_MISMATCH: 'escrow_mismatch',
  LIVE_STACK_MISMATCH: 'live_stack_mismatch',
  HAND_UNBALANCED: 'hand_unbalanced',
  HAND_LEDGER_MISMATCH: 'hand_ledger_mismatch',
  DUPLICATE_HAND: 'duplicate_hand',
  HAND_SEQUENCE: 'hand_sequence',
  CASH_OUT_MISMATCH: 'cash_out_mismatch',
  CASH_OUT_STUCK: 'cash_out_stuck',
  OPEN_INCIDENT: 'open_incident',
  FAILED_JOBS: 'failed_jobs',
  /** The house bankroll moved by something other than funding, bot stakes and bot returns. */
  BANKROLL_FLOW: 'bankroll_flow',
  /**
   * A tournament's prize pool is not its entries' buy-ins and add-ons less the prizes paid, the
   * house's fees are not the entries' fees, an entry's postings are not what its state says, or a
   * tournament that ended still holds chips or players (entries registered, playing, or busted and
   * never placed).
   */
  TOURNAMENT_MONEY: 'tournament_money',
} as const;
export type AuditIssueCode = (typeof AuditIssueCode)[keyof typeof AuditIssueCode];

export interface AuditIssue {
  readonly code: AuditIssueCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, string | number | boolean | null>>;
}

// One table's stacks as its worker holds them: the checkpoint's `money` section, a contract between
// the worker and this audit that lives in @felt/platform.
export type { LiveTableMoney };

export interface AuditOptions {
  /** Live stacks of a room's table where a cluster runs (null: no live table). */
  readonly liveTable?: (roomId: string) => Promise<LiveTableMoney | null>;
  /** Jobs in the hands queue's failed set, when the caller can see the queue. */
  readonly failedJobs?: number;
}

export interface AuditReport {
  readonly ok: boolean;
  readonly transactions: number;
  readonly hands: number;
  readonly wallets: number;
  /** wallets + escrow + rake + bankroll + tournament pools + fees - granted: zero when no chip was created or destroyed. */
  readonly imbalance: bigint;
  /**
   * The same for practice chips, conserved apart: practice wallets + practice rooms' escrows -
   * practice chips handed out.
   */
  readonly practiceImbalance: bigint;
  /** The house bankroll (bots' chips): its balance and every flow in and out of it. */
  readonly bankroll: BankrollReport;
  readonly issues: readonly AuditIssue[];
  /** Things worth knowing that are not violations (hands in flight, live stacks unavailable). */
  readonly notes: readonly string[];
}

const big = (x: bigint | number | string | null | undefined): bigint => BigInt(x ?? 0);

/**
 * Runs every check on one consistent snapshot of the database (a read-only REPEATABLE READ
 * transaction), so that hands and cash-outs the persister commits meanwhile cannot show up half.
 */
export async function runAudit(prisma: PrismaClient, options: AuditOptions = {}): Promise<AuditReport> {
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SET TRANSACTION READ ONLY`;
      return auditSnapshot(tx, options);
    },
    { isolationLevel: 'RepeatableRead', timeout: 600_000, maxWait: 30_000 },
  );
}

async function auditSnapshot(db: Db, options: AuditOptions): Promise<AuditReport> {
  const issues: AuditIssue[] = [];
  const notes: string[] = [];
  const issue = (code: AuditIssueCode, message: string, details?: AuditIssue['details']): void => {
    issues.push(details ? { code, message, details } : { code, message });
  };

  // ---- the ledger itself ------------------------------------------------------------------------
  const totals = await ledgerTotals(db);
  const unbalanced = await db.$queryRaw<{ key: string; total: bigint | null; n: bigint }[]>`
    SELECT t."idempotency_key" AS "key", sum(e."amount") AS "total", count(e."id") AS "n"
    FROM "ledger_transactions" t LEFT JOIN "ledger_entries" e ON e."transaction_id" = t."id"
    GROUP BY t."id" HAVING coalesce(sum(e."amount"), 0) <> 0 OR count(e."id") < 2`;
  for (const u of unbalanced) {
    issue(AuditIssueCode.UNBALANCED_TRANSACTION, `transaction ${u.key} sums to ${big(u.total)} over ${u.n} entries`);
  }
  const negative = await db.$queryRaw<{ key: string; balance: bigint }[]>`
    SELECT "key", "balance" FROM "ledger_accounts" WHERE "kind" NOT IN ('grant_source', 'practice_source') AND "balance" < 0`;
  for (const a of negative) issue(AuditIssueCode.NEGATIVE_BALANCE, `${a.key} holds ${a.balance}`);
  const drifted = await db.$queryRaw<{ key: string; balance: bigint; total: bigint | null }[]>`
    SELECT a."key", a."balance", (SELECT sum(e."amount") FROM "ledger_entries" e WHERE e."account_id" = a."id") AS "total"
    FROM "ledger_accounts" a
    WHERE a."balance" <> coalesce((SELECT sum(e."amount") FROM "ledger_entries" e WHERE e."account_id" = a."id"), 0)`;
  for (const a of drifted) {
    issue(AuditIssueCode.BALANCE_DRIFT, `${a.key} caches ${a.balance} but its entries sum to ${big(a.total)}`);
  }
  const held = totals.wallets + totals.escrow + totals.rake + totals.bankroll + totals.tournamentPools + totals.fees;
  const imbalance = held - totals.granted;
  if (imbalance !== 0n) {
    issue(
      AuditIssueCode.SYSTEM_IMBALANCE,
      `wallets ${totals.wallets} + escrow ${totals.escrow} + rake ${totals.rake} + bankroll ${totals.bankroll} + tournament pools ${totals.tournamentPools} + fees ${totals.fees} - granted ${totals.granted} = ${imbalance}`,
    );
  }
  // Practice chips are conserved on their own: they never become real chips or the other way.
  const practiceImbalance = totals.practiceWallets + totals.practiceEscrow - totals.practiceIssued;
  if (practiceImbalance !== 0n) {
    issue(
      AuditIssueCode.PRACTICE_IMBALANCE,
      `practice wallets ${totals.practiceWallets} + practice escrow ${totals.practiceEscrow} - practice issued ${totals.practiceIssued} = ${practiceImbalance}`,
    );
  }
  const mixed = await db.$queryRaw<{ key: string }[]>`
    SELECT t."idempotency_key" AS "key"
    FROM "ledger_transactions" t
    JOIN "ledger_entries" e ON e."transaction_id" = t."id"
    JOIN "ledger_accounts" a ON a."id" = e."account_id"
    LEFT JOIN "rooms" r ON r."id" = a."room_id"
    GROUP BY t."id"
    HAVING count(DISTINCT (a."kind" IN ('practice_wallet', 'practice_source')
      OR (a."kind" = 'escrow' AND coalesce(r."practice", false)))) > 1
    ORDER BY t."idempotency_key"`;
  for (const m of mixed) {
    issue(AuditIssueCode.PRACTICE_LEAK, `transaction ${m.key} moves chips between practice and real accounts`);
  }
  // The bankroll moves only by its own kinds of transaction, and its balance is exactly their sum.
  const { report: bankroll, otherEntries } = await bankrollFlows(db);
  if (otherEntries > 0) {
    issue(AuditIssueCode.BANKROLL_FLOW, `${otherEntries} bankroll entries belong to no bankroll transaction kind`);
  }
  if (bankroll.funded - bankroll.staked + bankroll.returned !== bankroll.balance) {
    issue(
      AuditIssueCode.BANKROLL_FLOW,
      `bankroll funded ${bankroll.funded} - staked ${bankroll.staked} + returned ${bankroll.returned} != balance ${bankroll.balance}`,
    );
  }

  await checkTournaments(db, issue);

  // ---- hands --------------------------------------------------------------------------------------
  const handStats = await db.$queryRaw<
    {
      hand_id: string;
      room_id: string;
      hand_no: number | null;
      pot_total: bigint;
      rake: bigint;
      players: bigint;
      contributed: bigint | null;
      won: bigint | null;
      net: bigint | null;
      rake_paid: bigint | null;
      pots: bigint | null;
      pot_rake: bigint | null;
    }[]
  >`
    SELECT h."hand_id", h."room_id"::text AS "room_id", h."hand_no", h."pot_total", h."rake",
      (SELECT count(*) FROM "hand_players" p WHERE p."hand_id" = h."hand_id" AND p."ended_at" = h."ended_at") AS "players",
      (SELECT sum(p."contributed") FROM "hand_players" p WHERE p."hand_id" = h."hand_id" AND p."ended_at" = h."ended_at") AS "contributed",
      (SELECT sum(p."won") FROM "hand_players" p WHERE p."hand_id" = h."hand_id" AND p."ended_at" = h."ended_at") AS "won",
      (SELECT sum(p."net") FROM "hand_players" p WHERE p."hand_id" = h."hand_id" AND p."ended_at" = h."ended_at") AS "net",
      (SELECT sum(p."rake_paid") FROM "hand_players" p WHERE p."hand_id" = h."hand_id" AND p."ended_at" = h."ended_at") AS "rake_paid",
      (SELECT sum(o."amount") FROM "hand_pots" o WHERE o."hand_id" = h."hand_id" AND o."ended_at" = h."ended_at") AS "pots",
      (SELECT sum(o."rake") FROM "hand_pots" o WHERE o."hand_id" = h."hand_id" AND o."ended_at" = h."ended_at") AS "pot_rake"
    FROM "hands" h`;
  for (const h of handStats) {
    if (h.hand_no === null) continue;
    const contributed = big(h.contributed);
    const won = big(h.won);
    const problems = [
      Number(h.players) < 2 ? `${h.players} players` : '',
      contributed !== won + h.rake ? `contributions ${contributed} != payouts ${won} + rake ${h.rake}` : '',
      big(h.net) + h.rake !== 0n ? `nets + rake = ${big(h.net) + h.rake}` : '',
      big(h.rake_paid) !== h.rake ? `rake paid ${big(h.rake_paid)} != rake ${h.rake}` : '',
      big(h.pots) !== contributed || h.pot_total !== contributed ? `pots ${big(h.pots)} != contributions` : '',
      big(h.pot_rake) !== h.rake ? `pot rake ${big(h.pot_rake)} != rake ${h.rake}` : '',
    ].filter(Boolean);
    if (problems.length > 0) issue(AuditIssueCode.HAND_UNBALANCED, `hand ${h.hand_id}: ${problems.join('; ')}`);
  }
  const potWinners = await db.$queryRaw<
    { hand_id: string; pot_index: number; amount: bigint; rake: bigint; paid: bigint | null }[]
  >`
    SELECT o."hand_id", o."pot_index", o."amount", o."rake",
      (SELECT sum((w->>'net')::bigint) FROM jsonb_array_elements(o."winners") w) AS "paid"
    FROM "hand_pots" o`;
  for (const p of potWinners) {
    if (big(p.paid) + p.rake !== p.amount) {
      issue(
        AuditIssueCode.HAND_UNBALANCED,
        `hand ${p.hand_id} pot ${p.pot_index}: winners ${big(p.paid)} + rake ${p.rake} != ${p.amount}`,
      );
    }
  }

  // The ledger postings of each hand are exactly its players' results and rake.
  const postings = await db.$queryRaw<{ key: string; account: string; amount: bigint }[]>`
    SELECT t."idempotency_key" AS "key", a."key" AS "account", e."amount"
    FROM "ledger_transactions" t JOIN "ledger_entries" e ON e."transaction_id" = t."id"
    JOIN "ledger_accounts" a ON a."id" = e."account_id"
    WHERE t."kind" IN ('hand_result', 'rake')`;
  const posted = new Map<string, bigint>();
  for (const p of postings) posted.set(`${p.key}|${p.account}`, p.amount);
  const handPlayers = await db.$queryRaw<
    { hand_id: string; room_id: string; user_id: string; net: bigint; rake_paid: bigint }[]
  >`
    SELECT p."hand_id", h."room_id"::text AS "room_id", p."user_id"::text AS "user_id", p."net", p."rake_paid"
    FROM "hand_players" p JOIN "hands" h ON h."hand_id" = p."hand_id" AND h."ended_at" = p."ended_at"`;
  const expected = new Map<string, bigint>();
  const rakeOf = new Map(handStats.map((h) => [h.hand_id, h.rake]));
  for (const p of handPlayers) {
    const keys = handLedgerKeys(p.hand_id);
    const escrow = `escrow:${p.room_id}:${p.user_id}`;
    if (p.net + p.rake_paid !== 0n) expected.set(`${keys.result}|${escrow}`, p.net + p.rake_paid);
    if (p.rake_paid !== 0n) expected.set(`${keys.rake}|${escrow}`, -p.rake_paid);
  }
  for (const [handId, rake] of rakeOf) if (rake > 0n) expected.set(`${handLedgerKeys(handId).rake}|house_rake`, rake);
  for (const [key, amount] of expected) {
    const got = posted.get(key);
    if (got !== amount) {
      issue(
        AuditIssueCode.HAND_LEDGER_MISMATCH,
        `${key.replace('|', ' → ')}: posted ${got ?? 'nothing'}, expected ${amount}`,
      );
    }
  }
  // A hand archived and dropped (`history:archive --drop`) keeps its key and its postings, not its rows.
  const archived = new Set(
    (
      await db.$queryRaw<{ hand_id: string }[]>`
        SELECT k."hand_id" FROM "hand_ids" k
        WHERE NOT EXISTS (SELECT 1 FROM "hands" h WHERE h."hand_id" = k."hand_id" AND h."ended_at" = k."ended_at")`
    ).map((r) => r.hand_id),
  );
  for (const [key, amount] of posted) {
    if (archived.has(key.slice(key.indexOf(':') + 1, key.indexOf('|')))) continue;
    if (!expected.has(key))
      issue(AuditIssueCode.HAND_LEDGER_MISMATCH, `${key.replace('|', ' → ')} posted ${amount} for no hand result`);
  }

  // No duplicates, and each room's hands are exactly 1..last_hand_no.
  const dupes = await db.$queryRaw<{ hand_id: string; n: bigint }[]>`
    SELECT "hand_id", count(*) AS "n" FROM "hands" GROUP BY "hand_id" HAVING count(*) > 1`;
  for (const d of dupes) issue(AuditIssueCode.DUPLICATE_HAND, `hand ${d.hand_id} is stored ${d.n} times`);
  const numberDupes = await db.$queryRaw<{ room_id: string; hand_no: number; n: bigint }[]>`
    SELECT "room_id"::text AS "room_id", "hand_no", count(*) AS "n" FROM "hands"
    WHERE "hand_no" IS NOT NULL GROUP BY "room_id", "hand_no" HAVING count(*) > 1`;
  for (const d of numberDupes) {
    issue(AuditIssueCode.DUPLICATE_HAND, `room ${d.room_id} has ${d.n} hands numbered ${d.hand_no}`);
  }
  const sequences = await db.$queryRaw<{ id: string; last_hand_no: number; n: bigint; max: number | null }[]>`
    SELECT r."id"::text AS "id", r."last_hand_no", count(n."hand_no") AS "n", max(n."hand_no") AS "max"
    FROM "rooms" r LEFT JOIN "hand_numbers" n ON n."room_id" = r."id"
    GROUP BY r."id" HAVING count(n."hand_no") <> r."last_hand_no" OR coalesce(max(n."hand_no"), 0) <> r."last_hand_no"`;
  for (const s of sequences) {
    issue(
      AuditIssueCode.HAND_SEQUENCE,
      `room ${s.id}: cursor at ${s.last_hand_no}, ${s.n} numbered hands stored, highest ${s.max ?? 0}`,
    );
  }

  // ---- escrow = table stack ---------------------------------------------------------------------
  await checkEscrows(db, options, issue, notes);

  // ---- cash-outs, incidents, the queue ------------------------------------------------------------
  const stuck = await db.$queryRaw<{ request_id: string; room_id: string; last_hand_no: number; cursor: number }[]>`
    SELECT c."request_id", c."room_id"::text AS "room_id", c."last_hand_no", r."last_hand_no" AS "cursor"
    FROM "cash_outs" c JOIN "rooms" r ON r."id" = c."room_id" WHERE c."status" = 'pending'`;
  for (const c of stuck) {
    if (c.cursor >= c.last_hand_no) {
      issue(
        AuditIssueCode.CASH_OUT_STUCK,
        `cash-out ${c.request_id} is pending though hands up to ${c.last_hand_no} are persisted`,
      );
    } else {
      notes.push(`cash-out ${c.request_id} waits for hand ${c.last_hand_no} (room ${c.room_id} at ${c.cursor})`);
    }
  }
  const mismatched = await db.cashOut.findMany({ where: { status: 'mismatch' } });
  for (const c of mismatched) {
    issue(
      AuditIssueCode.CASH_OUT_MISMATCH,
      `cash-out ${c.requestId}: final stack ${c.finalStack}, escrow held ${c.escrowFound ?? '?'}; nothing was paid`,
    );
  }
  const incidents = await db.moneyIncident.findMany({ where: { resolvedAt: null }, orderBy: { createdAt: 'asc' } });
  for (const i of incidents) {
    if (i.kind === 'cash_out_mismatch') continue; // reported above from the cash-out itself
    issue(
      AuditIssueCode.OPEN_INCIDENT,
      `${i.kind}${i.handId ? ` hand ${i.handId}` : ''}${i.requestId ? ` request ${i.requestId}` : ''}: ${JSON.stringify(i.details)}`,
    );
  }
  if (options.failedJobs !== undefined && options.failedJobs > 0) {
    issue(AuditIssueCode.FAILED_JOBS, `${options.failedJobs} jobs in the hands queue failed and wait for an operator`);
  }
  const closing = await db.room.count({ where: { status: 'closing' } });
  if (closing > 0) notes.push(`${closing} rooms are closing (never listed; refunds in progress)`);

  const hands = await db.hand.count();
  const wallets = await db.ledgerAccount.count({ where: { kind: 'wallet' } });
  return {
    ok: issues.length === 0,
    transactions: totals.transactions,
    hands,
    wallets,
    imbalance,
    practiceImbalance,
    bankroll,
    issues,
    notes,
  };
}

interface MembershipRow {
  id: string;
  room_id: string;
  user_id: string;
  buy_in: bigint;
  joined_after_hand: number;
}

/**
 * Each escrow against the stack the hand history gives: the buy-in, then each hand the player was
 * dealt in starts from the previous hand's final stack plus the top-ups applied in between; the
 * escrow is the last final stack plus the top-ups applied since, plus the pending ones. Where a
 * worker's live stacks are available and it has nothing in flight, they are compared too.
 */
async function checkEscrows(
  db: Db,
  options: AuditOptions,
  issue: (code: AuditIssueCode, message: string, details?: AuditIssue['details']) => void,
  notes: string[],
): Promise<void> {
  const escrows = await db.ledgerAccount.findMany({
    where: { kind: 'escrow' },
    select: { roomId: true, userId: true, balance: true },
  });
  const balanceOf = new Map(escrows.map((e) => [`${e.roomId}:${e.userId}`, e.balance]));
  const rooms = new Map(
    (await db.room.findMany({ select: { id: true, lastHandNo: true, status: true } })).map((r) => [r.id, r]),
  );
  const active = await db.$queryRaw<MembershipRow[]>`
    SELECT "id"::text AS "id", "room_id"::text AS "room_id", "user_id"::text AS "user_id", "buy_in", "joined_after_hand"
    FROM "memberships" WHERE "status" = 'active'`;
  const topUps = await db.topUp.findMany({
    where: { membershipId: { in: active.map((m) => m.id) } },
    select: { id: true, membershipId: true, amount: true, status: true, appliedAmount: true, appliedHandNo: true },
  });
  const openCashOuts = await db.cashOut.findMany({
    where: { status: { in: ['pending', 'mismatch'] } },
    select: { roomId: true, userId: true, status: true, lastHandNo: true, finalStack: true },
  });
  const seatedKeys = new Set(active.map((m) => `${m.room_id}:${m.user_id}`));
  const checked = new Set<string>();
  // Each live table is read once however many of its seats are audited: one round trip per room, and
  // every seat of a room compared with the same snapshot of it.
  const liveTables = new Map<string, Promise<LiveTableMoney | null>>();

  for (const m of active) {
    const key = `${m.room_id}:${m.user_id}`;
    checked.add(key);
    const room = rooms.get(m.room_id);
    const mine = topUps.filter((t) => t.membershipId === m.id);
    const hands = await db.$queryRaw<{ hand_no: number; starting_stack: bigint; final_stack: bigint }[]>`
      SELECT h."hand_no", p."starting_stack", p."final_stack"
      FROM "hand_players" p JOIN "hands" h ON h."hand_id" = p."hand_id" AND h."ended_at" = p."ended_at"
      WHERE h."room_id" = ${m.room_id}::uuid AND p."user_id" = ${m.user_id}::uuid AND h."hand_no" > ${m.joined_after_hand}
      ORDER BY h."hand_no"`;
    const appliedIn = (from: number, to: number): bigint =>
      mine
        .filter((t) => t.status === 'applied' && (t.appliedHandNo ?? 0) > from && (t.appliedHandNo ?? 0) <= to)
        .reduce((a, t) => a + (t.appliedAmount ?? 0n), 0n);
    let stack = m.buy_in;
    let prevNo = m.joined_after_hand;
    for (const h of hands) {
      const start = stack + appliedIn(prevNo, h.hand_no);
      if (start !== h.starting_stack) {
        issue(
          AuditIssueCode.ESCROW_MISMATCH,
          `room ${m.room_id} user ${m.user_id}: hand ${h.hand_no} starts at ${h.starting_stack}, history gives ${start}`,
        );
      }
      stack = h.final_stack;
      prevNo = h.hand_no;
    }
    stack += appliedIn(prevNo, Number.MAX_SAFE_INTEGER);
    const pending = mine.filter((t) => t.status === 'pending').reduce((a, t) => a + t.amount, 0n);
    const escrow = balanceOf.get(key) ?? 0n;
    if (escrow !== stack + pending) {
      issue(
        AuditIssueCode.ESCROW_MISMATCH,
        `room ${m.room_id} user ${m.user_id}: escrow ${escrow}, table stack ${stack} + pending top-ups ${pending}`,
      );
    }
    if (options.liveTable && room && room.status !== 'closed') {
      let read = liveTables.get(m.room_id);
      if (read === undefined) liveTables.set(m.room_id, (read = options.liveTable(m.room_id)));
      const live = await read;
      if (live === null) continue;
      if (live.lastHandNo !== room.lastHandNo) {
        notes.push(`room ${m.room_id}: worker at hand ${live.lastHandNo}, ${room.lastHandNo} persisted (in flight)`);
        continue;
      }
      const seat = live.seats.find((s) => s.userId === m.user_id);
      if (!seat) {
        notes.push(`room ${m.room_id}: user ${m.user_id} not seated at the live table yet`);
        continue;
      }
      if (seat.appliedTopUps.some((t) => !mine.some((r) => r.id === t.id))) {
        notes.push(`room ${m.room_id}: the live table applied a top-up newer than this snapshot`);
        continue;
      }
      const reported = new Set(seat.appliedTopUps.map((t) => t.id));
      const unapplied = mine
        .filter((t) => t.status === 'pending' && !reported.has(t.id))
        .reduce((a, t) => a + t.amount, 0n);
      const clamped = seat.appliedTopUps.reduce((a, t) => {
        const row = mine.find((r) => r.id === t.id);
        return a + (row && row.status === 'pending' ? row.amount - BigInt(t.applied) : 0n);
      }, 0n);
      const want = BigInt(seat.stack) + unapplied + clamped;
      if (want !== escrow) {
        issue(
          AuditIssueCode.LIVE_STACK_MISMATCH,
          `room ${m.room_id} user ${m.user_id}: escrow ${escrow}, live stack ${seat.stack} + unapplied top-ups ${unapplied + clamped}`,
        );
      }
    }
  }
  if (!options.liveTable) notes.push('live stacks not checked (no cluster given)');

  // Escrow with no seat behind it must be on its way back in a pending cash-out, or be empty.
  for (const e of escrows) {
    const key = `${e.roomId}:${e.userId}`;
    if (checked.has(key) || seatedKeys.has(key) || e.balance === 0n) continue;
    const open = openCashOuts.find((c) => `${c.roomId}:${c.userId}` === key);
    if (open?.status === 'pending') continue;
    if (open?.status === 'mismatch') continue; // reported as a cash-out mismatch
    issue(
      AuditIssueCode.ESCROW_MISMATCH,
      `room ${e.roomId} user ${e.userId}: escrow ${e.balance} with no seat and no cash-out`,
    );
  }
}

/** Tournament `t`'s config addOn.cost (0 without an add-on), as money/tournament.ts reads it. */
const ADD_ON_COST = Prisma.sql`coalesce(${TOURNAMENT_ADD_ON_COST_SQL}, 0)`;

/**
 * Tournament money (money/tournament.ts): each prize pool holds its paid entries' buy-ins and its
 * add-ons not refunded (each the config's addOn.cost) less the prizes paid (so it is empty once the
 * tournament ended), the fee account holds every paid entry's fee, and each entry's wallet postings
 * are exactly its entry, its refund, its add-on, the add-on's refund and its prize, as its status,
 * add_on_at and add_on_refunded_at say. A tournament that ended holds no entry still to be placed
 * (registered, playing or busted).
 */
async function checkTournaments(
  db: Db,
  issue: (code: AuditIssueCode, message: string, details?: AuditIssue['details']) => void,
): Promise<void> {
  const pools = await db.$queryRaw<
    {
      id: string;
      status: string;
      buy_in: bigint;
      fee: bigint;
      paid: bigint;
      add_ons: bigint;
      add_on_cost: bigint;
      live: bigint;
      prizes: bigint;
      pool: bigint | null;
    }[]
  >`
    SELECT t."id"::text AS "id", t."status"::text AS "status", t."buy_in", t."fee",
      (SELECT count(*) FROM "tournament_entries" e WHERE e."tournament_id" = t."id" AND e."status" <> 'refunded') AS "paid",
      (SELECT count(*) FROM "tournament_entries" e
        WHERE e."tournament_id" = t."id" AND e."add_on_at" IS NOT NULL AND e."add_on_refunded_at" IS NULL) AS "add_ons",
      ${ADD_ON_COST} AS "add_on_cost",
      -- A busted entry is still to be placed and paid: a tournament that ended with one lost a player.
      (SELECT count(*) FROM "tournament_entries" e
        WHERE e."tournament_id" = t."id" AND e."status" IN ('registered', 'playing', 'busted')) AS "live",
      (SELECT coalesce(sum(e."prize"), 0) FROM "tournament_entries" e WHERE e."tournament_id" = t."id") AS "prizes",
      (SELECT a."balance" FROM "ledger_accounts" a WHERE a."key" = 'tournament_pool:' || t."id"::text) AS "pool"
    FROM "tournaments" t`;
  let fees = 0n;
  for (const t of pools) {
    const pool = big(t.pool);
    const paidIn = tournamentPoolPaidIn({
      entries: big(t.paid),
      buyIn: t.buy_in,
      addOns: big(t.add_ons),
      addOnCost: big(t.add_on_cost),
    });
    const expected = paidIn - big(t.prizes);
    fees += big(t.paid) * t.fee;
    if (pool !== expected) {
      issue(
        AuditIssueCode.TOURNAMENT_MONEY,
        `tournament ${t.id}: pool ${pool}, ${t.paid} paid entries of ${t.buy_in} + ${t.add_ons} add-ons of ` +
          `${big(t.add_on_cost)} less prizes ${big(t.prizes)} = ${expected}`,
      );
    }
    if ((t.status === 'finished' || t.status === 'cancelled') && (pool !== 0n || big(t.live) > 0n)) {
      issue(
        AuditIssueCode.TOURNAMENT_MONEY,
        `tournament ${t.id} is ${t.status} with ${pool} in its pool and ${t.live} entries in play or not placed`,
      );
    }
  }
  const [feeRow] = await db.$queryRaw<{ balance: bigint | null }[]>`
    SELECT "balance" FROM "ledger_accounts" WHERE "key" = 'house_fee'`;
  if (big(feeRow?.balance) !== fees) {
    issue(AuditIssueCode.TOURNAMENT_MONEY, `house fees ${big(feeRow?.balance)}, the paid entries' fees ${fees}`);
  }
  const entries = await db.$queryRaw<
    {
      id: string;
      status: string;
      prize: bigint;
      price: bigint;
      paid: bigint | null;
      refunded: bigint | null;
      won: bigint | null;
      add_on_cost: bigint;
      bought: boolean;
      bought_back: boolean;
      added: bigint | null;
      added_back: bigint | null;
    }[]
  >`
    SELECT e."id"::text AS "id", e."status"::text AS "status", e."prize", t."buy_in" + t."fee" AS "price",
      ${ADD_ON_COST} AS "add_on_cost", e."add_on_at" IS NOT NULL AS "bought",
      e."add_on_refunded_at" IS NOT NULL AS "bought_back",
      (SELECT sum(le."amount") FROM "ledger_transactions" lt JOIN "ledger_entries" le ON le."transaction_id" = lt."id"
        JOIN "ledger_accounts" a ON a."id" = le."account_id"
        WHERE lt."idempotency_key" = 'tournament-entry:' || e."id"::text AND a."key" = 'wallet:' || e."user_id"::text) AS "paid",
      (SELECT sum(le."amount") FROM "ledger_transactions" lt JOIN "ledger_entries" le ON le."transaction_id" = lt."id"
        JOIN "ledger_accounts" a ON a."id" = le."account_id"
        WHERE lt."idempotency_key" = 'tournament-refund:' || e."id"::text AND a."key" = 'wallet:' || e."user_id"::text) AS "refunded",
      (SELECT sum(le."amount") FROM "ledger_transactions" lt JOIN "ledger_entries" le ON le."transaction_id" = lt."id"
        JOIN "ledger_accounts" a ON a."id" = le."account_id"
        WHERE lt."idempotency_key" = 'tournament-prize:' || e."id"::text AND a."key" = 'wallet:' || e."user_id"::text) AS "won",
      (SELECT sum(le."amount") FROM "ledger_transactions" lt JOIN "ledger_entries" le ON le."transaction_id" = lt."id"
        JOIN "ledger_accounts" a ON a."id" = le."account_id"
        WHERE lt."idempotency_key" = 'tournament-add-on:' || e."id"::text AND a."key" = 'wallet:' || e."user_id"::text) AS "added",
      (SELECT sum(le."amount") FROM "ledger_transactions" lt JOIN "ledger_entries" le ON le."transaction_id" = lt."id"
        JOIN "ledger_accounts" a ON a."id" = le."account_id"
        WHERE lt."idempotency_key" = 'tournament-add-on-refund:' || e."id"::text AND a."key" = 'wallet:' || e."user_id"::text) AS "added_back"
    FROM "tournament_entries" e JOIN "tournaments" t ON t."id" = e."tournament_id"`;
  for (const e of entries) {
    const cost = big(e.add_on_cost);
    const want = {
      paid: -e.price,
      refunded: e.status === 'refunded' ? e.price : 0n,
      won: e.prize,
      addOn: e.bought ? -cost : 0n,
      addOnRefund: e.bought_back ? cost : 0n,
    };
    const got = {
      paid: big(e.paid),
      refunded: big(e.refunded),
      won: big(e.won),
      addOn: big(e.added),
      addOnRefund: big(e.added_back),
    };
    if ((Object.keys(want) as (keyof typeof want)[]).some((k) => got[k] !== want[k])) {
      issue(
        AuditIssueCode.TOURNAMENT_MONEY,
        `tournament entry ${e.id} (${e.status}): wallet postings paid ${got.paid}, refunded ${got.refunded}, won ${got.won}, ` +
          `add-on ${got.addOn}, add-on refund ${got.addOnRefund}; ` +
          `expected ${want.paid}, ${want.refunded}, ${want.won}, ${want.addOn}, ${want.addOnRefund}`,
      );
    }
  }
  // Every tournament transaction is keyed <kind>:<entry id> (tournamentLedgerKeys) by an entry that exists.
  const orphans = await db.$queryRaw<{ key: string }[]>`
    SELECT lt."idempotency_key" AS "key" FROM "ledger_transactions" lt
    LEFT JOIN "tournament_entries" e ON e."id" = (CASE WHEN split_part(lt."idempotency_key", ':', 2) ~ '^[0-9a-f-]{36}$'
      THEN split_part(lt."idempotency_key", ':', 2)::uuid END)
    WHERE lt."kind" IN ('tournament_entry', 'tournament_refund', 'tournament_prize', 'tournament_add_on',
        'tournament_add_on_refund')
      AND (e."id" IS NULL OR split_part(lt."idempotency_key", ':', 1) <>
        CASE lt."kind" WHEN 'tournament_entry' THEN 'tournament-entry' WHEN 'tournament_refund' THEN 'tournament-refund'
          WHEN 'tournament_add_on' THEN 'tournament-add-on' WHEN 'tournament_add_on_refund' THEN 'tournament-add-on-refund'
          ELSE 'tournament-prize' END)`;
  for (const o of orphans) issue(AuditIssueCode.TOURNAMENT_MONEY, `${o.key} belongs to no tournament entry`);
}
