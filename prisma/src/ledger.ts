import type { Prisma, PrismaClient, TxClient, Db } from './client.js';
import { AccountKind, LedgerTxKind } from './generated/enums.js';
import {
  IdempotencyConflictError,
  InsufficientFundsError,
  LedgerImmutableError,
  LedgerInvalidError,
  LedgerUnbalancedError,
  PracticeChipsMixedError,
} from './errors.js';
import { isUniqueViolation, pgErrorInfo } from './pg-error.js';
import { withTransaction, type TransactionOptions } from './transaction.js';

/**
 * Double-entry ledger (docs/dev/money-flows.md, "Accounts and invariants"). Chips enter the system only from the grant
 * source and otherwise move between accounts; every transaction's entries sum to zero. The
 * database enforces the same rules independently (see the migration): these functions check
 * first so that callers get typed errors, and the triggers catch anything that bypasses them.
 */

/** An account, named by what it holds. */
export type AccountRef =
  | { readonly kind: 'wallet'; readonly userId: string }
  | { readonly kind: 'escrow'; readonly roomId: string; readonly userId: string }
  | { readonly kind: 'house_rake' }
  | { readonly kind: 'grant_source' }
  | { readonly kind: 'house_bankroll' }
  | { readonly kind: 'tournament_pool'; readonly tournamentId: string }
  | { readonly kind: 'house_fee' }
  | { readonly kind: 'practice_wallet'; readonly userId: string }
  | { readonly kind: 'practice_source' };

export const HOUSE_RAKE: AccountRef = { kind: AccountKind.house_rake };
export const GRANT_SOURCE: AccountRef = { kind: AccountKind.grant_source };
/** The house's chips for bots (bankroll.ts): funded by an operator, never below zero. */
export const HOUSE_BANKROLL: AccountRef = { kind: AccountKind.house_bankroll };
/** Tournament entry fees collected by the house (money/tournament.ts). */
export const HOUSE_FEE: AccountRef = { kind: AccountKind.house_fee };
/** One tournament's prize pool: buy-ins in, prizes and refunds out; never below zero. */
export const tournamentPoolAccount = (tournamentId: string): AccountRef => ({
  kind: AccountKind.tournament_pool,
  tournamentId,
});
export const walletAccount = (userId: string): AccountRef => ({ kind: AccountKind.wallet, userId });
/** Where practice chips come from (practice.ts): runs a deficit, like the grant source. */
export const PRACTICE_SOURCE: AccountRef = { kind: AccountKind.practice_source };
/** A player's practice chips: paid only to and from escrows at practice rooms and the practice source. */
export const practiceWalletAccount = (userId: string): AccountRef => ({ kind: AccountKind.practice_wallet, userId });

/**
 * The wallet a player's chips at this room come from and go back to: the practice wallet at a
 * practice room (`rooms.practice`), the real wallet anywhere else. Every wallet ↔ escrow movement
 * goes through it; the database refuses a transaction that mixes the two kinds of chips anyway.
 */
export function walletFor(room: { readonly practice: boolean }, userId: string): AccountRef {
  return room.practice ? practiceWalletAccount(userId) : walletAccount(userId);
}

/** walletFor, reading the room's flag (a room that does not exist has real chips: nothing to pay). */
export async function roomWalletFor(db: Db, roomId: string, userId: string): Promise<AccountRef> {
  const room = await db.room.findUnique({ where: { id: roomId }, select: { practice: true } });
  return walletFor({ practice: room?.practice ?? false }, userId);
}

/** Accounts allowed below zero: the two sources, where chips of each kind enter. */
const SOURCE_KINDS: ReadonlySet<string> = new Set([AccountKind.grant_source, AccountKind.practice_source]);
export const escrowAccount = (roomId: string, userId: string): AccountRef => ({
  kind: AccountKind.escrow,
  roomId,
  userId,
});

/** The account's natural key, as stored in ledger_accounts.key (a CHECK holds it to this shape). */
export function accountKey(ref: AccountRef): string {
  switch (ref.kind) {
    case 'wallet':
      return `wallet:${ref.userId}`;
    case 'escrow':
      return `escrow:${ref.roomId}:${ref.userId}`;
    case 'tournament_pool':
      return `tournament_pool:${ref.tournamentId}`;
    case 'practice_wallet':
      return `practice:${ref.userId}`;
    case 'house_rake':
    case 'grant_source':
    case 'house_bankroll':
    case 'house_fee':
    case 'practice_source':
      return ref.kind;
  }
}

export interface Posting {
  readonly account: AccountRef;
  /** Signed chip amount: positive credits the account, negative debits it. */
  readonly amount: bigint;
}

export interface LedgerTransactionRequest {
  /** Replaying a key returns the original transaction and changes nothing. */
  readonly idempotencyKey: string;
  readonly kind: LedgerTxKind;
  readonly postings: readonly Posting[];
  readonly roomId?: string;
  readonly handId?: string;
  readonly tournamentId?: string;
  readonly memo?: Prisma.InputJsonValue;
}

export interface LedgerEntryView {
  readonly accountKey: string;
  readonly amount: bigint;
}

export interface PostedLedgerTransaction {
  readonly id: string;
  readonly idempotencyKey: string;
  readonly kind: LedgerTxKind;
  readonly roomId: string | null;
  readonly handId: string | null;
  readonly createdAt: Date;
  readonly entries: readonly LedgerEntryView[];
  /** True when this key had been posted before: the original is returned and nothing changed. */
  readonly replayed: boolean;
}

const MAX_KEY_LENGTH = 200;

interface NormalizedPosting {
  readonly ref: AccountRef;
  readonly key: string;
  readonly amount: bigint;
}

function normalize(req: LedgerTransactionRequest): NormalizedPosting[] {
  if (req.idempotencyKey.length === 0 || req.idempotencyKey.length > MAX_KEY_LENGTH) {
    throw new LedgerInvalidError(`idempotency key must be 1..${MAX_KEY_LENGTH} characters`);
  }
  const merged = new Map<string, NormalizedPosting>();
  let sum = 0n;
  for (const p of req.postings) {
    if (typeof p.amount !== 'bigint') throw new LedgerInvalidError('amounts must be bigint chips');
    const key = accountKey(p.account);
    const prev = merged.get(key);
    merged.set(key, { ref: p.account, key, amount: (prev?.amount ?? 0n) + p.amount });
    sum += p.amount;
  }
  if (sum !== 0n) throw new LedgerUnbalancedError(req.idempotencyKey, sum);
  const postings = [...merged.values()].filter((p) => p.amount !== 0n);
  if (postings.length < 2) {
    throw new LedgerInvalidError(`ledger transaction ${req.idempotencyKey} must move chips between two accounts`);
  }
  return postings.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

type StoredTransaction = Prisma.LedgerTransactionGetPayload<{
  include: { entries: { include: { account: { select: { key: true } } } } };
}>;

function view(stored: StoredTransaction, replayed: boolean): PostedLedgerTransaction {
  return {
    id: stored.id,
    idempotencyKey: stored.idempotencyKey,
    kind: stored.kind,
    roomId: stored.roomId,
    handId: stored.handId,
    createdAt: stored.createdAt,
    entries: stored.entries
      .map((e) => ({ accountKey: e.account.key, amount: e.amount }))
      .sort((a, b) => (a.accountKey < b.accountKey ? -1 : a.accountKey > b.accountKey ? 1 : 0)),
    replayed,
  };
}

async function findTransaction(db: Db, idempotencyKey: string): Promise<StoredTransaction | null> {
  return db.ledgerTransaction.findUnique({
    where: { idempotencyKey },
    include: { entries: { include: { account: { select: { key: true } } } } },
  });
}

function sameContent(stored: StoredTransaction, req: LedgerTransactionRequest, postings: NormalizedPosting[]): boolean {
  if (stored.kind !== req.kind) return false;
  if ((req.roomId ?? null) !== stored.roomId || (req.handId ?? null) !== stored.handId) return false;
  if ((req.tournamentId ?? null) !== stored.tournamentId) return false;
  if (stored.entries.length !== postings.length) return false;
  const amounts = new Map(stored.entries.map((e) => [e.account.key, e.amount]));
  return postings.every((p) => amounts.get(p.key) === p.amount);
}

interface LockedAccount {
  id: string;
  key: string;
  kind: string;
  balance: bigint;
}

/**
 * Creates the accounts if they are missing, then locks them in key order. One global lock order
 * keeps two transactions that touch the same accounts from deadlocking each other; a database
 * transaction that posts several ledger transactions calls this first with every account it will
 * touch, so that its later posts take no lock out of that order.
 */
export async function lockLedgerAccounts(
  tx: TxClient,
  refs: readonly AccountRef[],
): Promise<Map<string, { id: string; key: string; kind: string; balance: bigint }>> {
  if (refs.length === 0) return new Map();
  return lockAccounts(tx, refs);
}

async function lockAccounts(tx: TxClient, refs: readonly AccountRef[]): Promise<Map<string, LockedAccount>> {
  const rows = refs.map((ref) => ({
    key: accountKey(ref),
    kind: ref.kind,
    userId: ref.kind === 'wallet' || ref.kind === 'escrow' || ref.kind === 'practice_wallet' ? ref.userId : null,
    roomId: ref.kind === 'escrow' ? ref.roomId : null,
    tournamentId: ref.kind === 'tournament_pool' ? ref.tournamentId : null,
  }));
  await tx.ledgerAccount.createMany({ data: rows, skipDuplicates: true });
  const keys = rows.map((r) => r.key).sort();
  const locked = await tx.$queryRaw<LockedAccount[]>`
    SELECT "id"::text AS "id", "key", "kind"::text AS "kind", "balance"
    FROM "ledger_accounts" WHERE "key" = ANY(${keys}) ORDER BY "key" FOR UPDATE`;
  return new Map(locked.map((a) => [a.key, { ...a, balance: BigInt(a.balance) }]));
}

/**
 * Posts one ledger transaction inside the caller's database transaction. Idempotent: a replayed
 * key returns the original (`replayed: true`) if the content matches, and throws
 * IdempotencyConflictError if it doesn't. Throws InsufficientFundsError before writing anything if
 * a wallet, escrow or the rake account would go below zero.
 *
 * A concurrent post of the same key makes one of the two database transactions fail with a unique
 * violation; run the caller's transaction again (withTransaction's `retryOn: isIdempotencyRace`)
 * and the retry returns the original.
 */
export async function postLedgerTransaction(
  tx: TxClient,
  req: LedgerTransactionRequest,
): Promise<PostedLedgerTransaction> {
  const postings = normalize(req);
  const existing = await findTransaction(tx, req.idempotencyKey);
  if (existing) {
    if (!sameContent(existing, req, postings)) throw new IdempotencyConflictError(req.idempotencyKey);
    return view(existing, true);
  }
  const accounts = await lockAccounts(
    tx,
    postings.map((p) => p.ref),
  );
  for (const p of postings) {
    const account = accounts.get(p.key);
    if (!account) throw new LedgerInvalidError(`account ${p.key} could not be opened`);
    if (p.amount < 0n && !SOURCE_KINDS.has(account.kind) && account.balance + p.amount < 0n) {
      throw new InsufficientFundsError(p.key, account.balance, -p.amount);
    }
  }
  // Practice and real chips never meet: the database's trigger (ledger_entries_chip_kinds) refuses the
  // entries, and the refusal comes back typed, with this transaction's key.
  const stored = await tx.ledgerTransaction
    .create({
      data: {
        idempotencyKey: req.idempotencyKey,
        kind: req.kind,
        roomId: req.roomId ?? null,
        handId: req.handId ?? null,
        tournamentId: req.tournamentId ?? null,
        ...(req.memo !== undefined ? { memo: req.memo } : {}),
        entries: {
          create: postings.map((p) => ({
            entryKey: `${req.idempotencyKey}/${p.key}`,
            accountId: accounts.get(p.key)!.id,
            amount: p.amount,
          })),
        },
      },
      include: { entries: { include: { account: { select: { key: true } } } } },
    })
    .catch((err: unknown) => {
      throw pgErrorInfo(err).sqlState === 'FL006'
        ? new PracticeChipsMixedError(req.idempotencyKey, { cause: err })
        : err;
    });
  return view(stored, false);
}

/** Makes sure the user's wallet account and its `wallets` row exist. */
export async function openWallet(tx: TxClient, userId: string): Promise<void> {
  const ref = walletAccount(userId);
  await tx.ledgerAccount.createMany({
    data: [{ key: accountKey(ref), kind: AccountKind.wallet, userId }],
    skipDuplicates: true,
  });
  const account = await tx.ledgerAccount.findUniqueOrThrow({ where: { key: accountKey(ref) }, select: { id: true } });
  await tx.wallet.createMany({ data: [{ userId, accountId: account.id }], skipDuplicates: true });
}

export interface GrantRequest {
  readonly userId: string;
  readonly amount: bigint;
  readonly idempotencyKey: string;
  readonly memo?: Prisma.InputJsonValue;
}

/** Chips from the grant source into a wallet (e.g. the sign-up grant). */
export async function grant(tx: TxClient, req: GrantRequest): Promise<PostedLedgerTransaction> {
  positive(req.amount, 'grant');
  await openWallet(tx, req.userId);
  return postLedgerTransaction(tx, {
    idempotencyKey: req.idempotencyKey,
    kind: LedgerTxKind.grant,
    postings: [
      { account: GRANT_SOURCE, amount: -req.amount },
      { account: walletAccount(req.userId), amount: req.amount },
    ],
    ...(req.memo !== undefined ? { memo: req.memo } : {}),
  });
}

export interface BankrollFundingRequest {
  readonly amount: bigint;
  /** Replaying it changes nothing (an operator's retried command). */
  readonly idempotencyKey: string;
  readonly memo?: Prisma.InputJsonValue;
}

/** An operator funds the house bankroll: grant source → bankroll. */
export async function fundBankroll(tx: TxClient, req: BankrollFundingRequest): Promise<PostedLedgerTransaction> {
  positive(req.amount, 'bankroll funding');
  return postLedgerTransaction(tx, {
    idempotencyKey: req.idempotencyKey,
    kind: LedgerTxKind.bankroll_funding,
    postings: [
      { account: GRANT_SOURCE, amount: -req.amount },
      { account: HOUSE_BANKROLL, amount: req.amount },
    ],
    ...(req.memo !== undefined ? { memo: req.memo } : {}),
  });
}

export interface BuyInRequest {
  readonly userId: string;
  readonly roomId: string;
  readonly amount: bigint;
  readonly idempotencyKey: string;
  /** buy_in when taking a seat; top_up when adding chips between hands. */
  readonly kind?: typeof LedgerTxKind.buy_in | typeof LedgerTxKind.top_up;
}

/**
 * Wallet → the player's escrow at the room (the practice wallet at a practice room: walletFor). Range checks against the room's buy-in limits are the
 * caller's: the ledger knows chips, not rooms.
 */
export async function buyIn(tx: TxClient, req: BuyInRequest): Promise<PostedLedgerTransaction> {
  positive(req.amount, 'buy-in');
  return postLedgerTransaction(tx, {
    idempotencyKey: req.idempotencyKey,
    kind: req.kind ?? LedgerTxKind.buy_in,
    roomId: req.roomId,
    postings: [
      { account: await roomWalletFor(tx, req.roomId, req.userId), amount: -req.amount },
      { account: escrowAccount(req.roomId, req.userId), amount: req.amount },
    ],
  });
}

export interface CashOutRequest {
  readonly userId: string;
  readonly roomId: string;
  readonly idempotencyKey: string;
  /**
   * Chips to return. Omitted: the whole escrow balance. A top-up's unapplied excess passes its
   * amount; a player's final stack goes through requestCashOut (money/cash-out.ts) instead.
   */
  readonly amount?: bigint;
  /** cash_out when a player leaves; refund when a room is deleted or a top-up's excess goes back. */
  readonly kind?: typeof LedgerTxKind.cash_out | typeof LedgerTxKind.refund;
}

/**
 * Escrow → wallet (the practice wallet at a practice room: walletFor). Returns null when there is nothing to move (an empty escrow and no amount).
 * Replays of the key return the original, whatever the escrow holds now.
 */
export async function cashOut(tx: TxClient, req: CashOutRequest): Promise<PostedLedgerTransaction | null> {
  const existing = await findTransaction(tx, req.idempotencyKey);
  if (existing) return view(existing, true);
  const escrow = escrowAccount(req.roomId, req.userId);
  const wallet = await roomWalletFor(tx, req.roomId, req.userId);
  let amount = req.amount;
  if (amount === undefined) {
    const locked = await lockAccounts(tx, [escrow, wallet]);
    amount = locked.get(accountKey(escrow))?.balance ?? 0n;
    if (amount === 0n) return null;
  }
  positive(amount, 'cash-out');
  return postLedgerTransaction(tx, {
    idempotencyKey: req.idempotencyKey,
    kind: req.kind ?? LedgerTxKind.cash_out,
    roomId: req.roomId,
    postings: [
      { account: escrow, amount: -amount },
      { account: wallet, amount },
    ],
  });
}

function positive(amount: bigint, what: string): void {
  if (typeof amount !== 'bigint' || amount <= 0n)
    throw new LedgerInvalidError(`${what} amount must be a positive bigint`);
}

/** Current balance; 0 for an account that was never opened. */
export async function accountBalance(db: Db, ref: AccountRef): Promise<bigint> {
  const row = await db.ledgerAccount.findUnique({ where: { key: accountKey(ref) }, select: { balance: true } });
  return row?.balance ?? 0n;
}

/** Every player's escrow at one room, by user id (players with an empty escrow included). */
export async function roomEscrows(db: Db, roomId: string): Promise<Map<string, bigint>> {
  const rows = await db.ledgerAccount.findMany({
    where: { kind: AccountKind.escrow, roomId },
    select: { userId: true, balance: true },
  });
  return new Map(rows.flatMap((r) => (r.userId ? [[r.userId, r.balance] as const] : [])));
}

export interface LedgerTotals {
  /** Chips ever granted (minus the grant source's balance). */
  readonly granted: bigint;
  readonly wallets: bigint;
  /** Escrows at real-chip rooms (practice rooms' escrows are in practiceEscrow). */
  readonly escrow: bigint;
  readonly rake: bigint;
  /** The house bankroll's chips (staked bots hold the rest of what it was funded). */
  readonly bankroll: bigint;
  /** Chips in tournament prize pools, and the entry fees the house collected. */
  readonly tournamentPools: bigint;
  readonly fees: bigint;
  /** Practice chips ever handed out (minus the practice source's balance). */
  readonly practiceIssued: bigint;
  /** Practice wallets, and escrows at practice rooms. */
  readonly practiceWallets: bigint;
  readonly practiceEscrow: bigint;
  /**
   * Transactions whose entries mix practice and real accounts: always 0 unless the trigger was
   * bypassed (each such leak also shows as equal and opposite gaps in the two equations).
   */
  readonly mixedTransactions: number;
  readonly transactions: number;
  /** Transactions whose entries don't sum to zero: always 0 unless the triggers were bypassed. */
  readonly unbalancedTransactions: number;
  /** Accounts whose cached balance differs from the sum of their entries. */
  readonly driftedAccounts: number;
  /** Wallets, escrows, rake or the bankroll below zero. */
  readonly negativeAccounts: number;
}

/**
 * System-wide sums for audits and tests. Real chips and practice chips are conserved apart:
 * wallets + escrow + rake + bankroll + tournament pools + fees === granted, and
 * practice wallets + practice escrow === practice issued, with no unbalanced, drifted, negative or
 * mixed rows.
 */
export async function ledgerTotals(db: Db): Promise<LedgerTotals> {
  const [sums] = await db.$queryRaw<
    {
      granted: bigint | null;
      wallets: bigint | null;
      escrow: bigint | null;
      rake: bigint | null;
      bankroll: bigint | null;
      pools: bigint | null;
      fees: bigint | null;
      practice_issued: bigint | null;
      practice_wallets: bigint | null;
      practice_escrow: bigint | null;
      negative: bigint;
    }[]
  >`
    SELECT
      -sum(a."balance") FILTER (WHERE a."kind" = 'grant_source') AS "granted",
      sum(a."balance") FILTER (WHERE a."kind" = 'wallet') AS "wallets",
      sum(a."balance") FILTER (WHERE a."kind" = 'escrow' AND NOT coalesce(r."practice", false)) AS "escrow",
      sum(a."balance") FILTER (WHERE a."kind" = 'house_rake') AS "rake",
      sum(a."balance") FILTER (WHERE a."kind" = 'house_bankroll') AS "bankroll",
      sum(a."balance") FILTER (WHERE a."kind" = 'tournament_pool') AS "pools",
      sum(a."balance") FILTER (WHERE a."kind" = 'house_fee') AS "fees",
      -sum(a."balance") FILTER (WHERE a."kind" = 'practice_source') AS "practice_issued",
      sum(a."balance") FILTER (WHERE a."kind" = 'practice_wallet') AS "practice_wallets",
      sum(a."balance") FILTER (WHERE a."kind" = 'escrow' AND coalesce(r."practice", false)) AS "practice_escrow",
      count(*) FILTER (WHERE a."kind" NOT IN ('grant_source', 'practice_source') AND a."balance" < 0) AS "negative"
    FROM "ledger_accounts" a LEFT JOIN "rooms" r ON r."id" = a."room_id"`;
  const [checks] = await db.$queryRaw<{ transactions: bigint; unbalanced: bigint; drifted: bigint; mixed: bigint }[]>`
    SELECT
      (SELECT count(*) FROM "ledger_transactions") AS "transactions",
      (SELECT count(*) FROM (
        SELECT e."transaction_id" FROM "ledger_entries" e
        JOIN "ledger_accounts" a ON a."id" = e."account_id" LEFT JOIN "rooms" r ON r."id" = a."room_id"
        GROUP BY e."transaction_id"
        HAVING count(DISTINCT (a."kind" IN ('practice_wallet', 'practice_source')
          OR (a."kind" = 'escrow' AND coalesce(r."practice", false)))) > 1) m) AS "mixed",
      (SELECT count(*) FROM (
        SELECT t."id" FROM "ledger_transactions" t LEFT JOIN "ledger_entries" e ON e."transaction_id" = t."id"
        GROUP BY t."id" HAVING coalesce(sum(e."amount"), 0) <> 0 OR count(e."id") < 2) u) AS "unbalanced",
      (SELECT count(*) FROM "ledger_accounts" a
        WHERE a."balance" <> coalesce((SELECT sum(e."amount") FROM "ledger_entries" e WHERE e."account_id" = a."id"), 0)
      ) AS "drifted"`;
  const n = (x: bigint | number | null | undefined): bigint => BigInt(x ?? 0);
  return {
    granted: n(sums?.granted),
    wallets: n(sums?.wallets),
    escrow: n(sums?.escrow),
    rake: n(sums?.rake),
    bankroll: n(sums?.bankroll),
    tournamentPools: n(sums?.pools),
    fees: n(sums?.fees),
    practiceIssued: n(sums?.practice_issued),
    practiceWallets: n(sums?.practice_wallets),
    practiceEscrow: n(sums?.practice_escrow),
    mixedTransactions: Number(checks?.mixed ?? 0),
    transactions: Number(checks?.transactions ?? 0),
    unbalancedTransactions: Number(checks?.unbalanced ?? 0),
    driftedAccounts: Number(checks?.drifted ?? 0),
    negativeAccounts: Number(sums?.negative ?? 0),
  };
}

/** The losing side of two concurrent posts of one idempotency key: re-run it to get the original. */
export function isIdempotencyRace(err: unknown): boolean {
  return isUniqueViolation(err, 'ledger_transactions_idempotency_key_key');
}

/** Turns the database's own refusals (the triggers and CHECKs) into typed ledger errors. */
export function mapLedgerError(err: unknown): unknown {
  const info = pgErrorInfo(err);
  if (info.sqlState === 'FL002') return new LedgerUnbalancedError(undefined, undefined, { cause: err });
  if (info.sqlState === 'FL001' || info.sqlState === 'FL003') return new LedgerImmutableError({ cause: err });
  if (info.sqlState === 'FL006') return new PracticeChipsMixedError(undefined, { cause: err });
  if (info.sqlState === '23514' && /ledger_accounts_balance_nonnegative/.test(String((err as Error).message ?? ''))) {
    return new InsufficientFundsError('(unknown)', 0n, 0n, { cause: err });
  }
  return err;
}

/**
 * The ledger as a repository over one PrismaClient: each call is its own database transaction,
 * retried on serialization failures, deadlocks and idempotency races. Inside a larger
 * transaction (a seat plus its buy-in), call the free functions with the `tx` client instead.
 */
export class Ledger {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: TransactionOptions = {},
  ) {}

  post(req: LedgerTransactionRequest): Promise<PostedLedgerTransaction> {
    return this.run((tx) => postLedgerTransaction(tx, req));
  }

  grant(req: GrantRequest): Promise<PostedLedgerTransaction> {
    return this.run((tx) => grant(tx, req));
  }

  buyIn(req: BuyInRequest): Promise<PostedLedgerTransaction> {
    return this.run((tx) => buyIn(tx, req));
  }

  cashOut(req: CashOutRequest): Promise<PostedLedgerTransaction | null> {
    return this.run((tx) => cashOut(tx, req));
  }

  balance(ref: AccountRef): Promise<bigint> {
    return accountBalance(this.prisma, ref);
  }

  totals(): Promise<LedgerTotals> {
    return ledgerTotals(this.prisma);
  }

  private async run<T>(fn: (tx: TxClient) => Promise<T>): Promise<T> {
    try {
      return await withTransaction(this.prisma, fn, {
        ...this.options,
        retryOn: (err) => isIdempotencyRace(err) || (this.options.retryOn?.(err) ?? false),
      });
    } catch (err) {
      throw mapLedgerError(err);
    }
  }
}
