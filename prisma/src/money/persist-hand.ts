import type { PrismaClient, TxClient } from '../client.js';
import { LedgerTxKind, TopUpStatus } from '../generated/enums.js';
import {
  EscrowMismatchError,
  HandConflictError,
  HandNotReadyError,
  HandRecordInvalidError,
  LedgerInvalidError,
  LedgerUnbalancedError,
} from '../errors.js';
import {
  HOUSE_RAKE,
  accountKey,
  escrowAccount,
  isIdempotencyRace,
  lockLedgerAccounts,
  mapLedgerError,
  walletFor,
  type AccountRef,
} from '../ledger.js';
import { withPgTransaction, withTransaction, type PgPool } from '../transaction.js';
import { settleRoomCashOuts, type CashOutOutcome } from './cash-out.js';
import { isHandIdRace } from './hand-lookup.js';
import { ensureHandPartitions, forgetHandPartitionsOn } from './hand-partitions.js';
import type { NormalizedHand } from './hand-record.js';
import {
  advanceRoomCursors,
  insertHands,
  lockRoomRows,
  pgSql,
  prismaSql,
  readHandContexts,
  type SqlRunner,
  type HandInsert,
  type HandLedgerTx,
  type LockedAccountRow,
  type PersistedHandRow,
  type TopUpRow,
} from './hand-sql.js';
import { lockRoomRow, type LockedRoomRow } from './room-lock.js';

export type PersistResult =
  | { readonly result: 'written'; readonly handId: string; readonly cashOuts: readonly CashOutOutcome[] }
  | { readonly result: 'duplicate'; readonly handId: string; readonly cashOuts: readonly CashOutOutcome[] }
  /**
   * Not written, and never will be: the table was built again from the room rows (its checkpoint
   * lost) under a later epoch than the hand's, from a hand before this one, so it went on from
   * stacks this hand never moved (sealRoomRebuild). Its chips stay where the rows had them.
   */
  | { readonly result: 'superseded'; readonly handId: string; readonly cashOuts: readonly CashOutOutcome[] };

/** Idempotency keys of a hand's ledger transactions. */
export const handLedgerKeys = (handId: string) => ({ result: `hand:${handId}`, rake: `rake:${handId}` }) as const;

/**
 * Writes one completed hand in one Postgres transaction: the hand row with its seeds,
 * the players dealt in, the operation log in order, every dealt card with its deck index, the pots
 * with their rake, the top-ups the table applied before it, the ledger transactions that move each
 * player's net between escrows and the rake to the house, the room's hand cursor, and the
 * cash-outs that were waiting for this hand.
 *
 * Four statements carry a hand (lock the room; lock its accounts and read what it is checked
 * against; insert everything, the top-ups it reports and their refunds included; move the cursor:
 * hand-sql.ts). Cash-outs it releases take the ledger functions' longer path in the same
 * transaction.
 *
 * - A hand id already persisted is a no-op (`duplicate`); the same id or hand number with
 *   different content throws HandConflictError.
 * - Hands of a room are written strictly in hand-number order: if the previous one is missing
 *   this throws HandNotReadyError and writes nothing.
 * - Before posting, every dealt-in player's escrow must hold their starting stack plus their
 *   pending top-ups; otherwise EscrowMismatchError and nothing is written.
 */
export async function persistHand(
  prisma: PrismaClient,
  hand: NormalizedHand,
  options: { readonly now?: () => Date } = {},
): Promise<PersistResult> {
  const now = options.now ?? (() => new Date());
  try {
    await ensureHandPartitions(prisma, [hand.endedAt]);
    return await withTransaction(prisma, (tx) => writeHand(tx, hand, now()), {
      retryOn: (err) => isIdempotencyRace(err) || isHandIdRace(err),
    });
  } catch (err) {
    forgetHandPartitionsOn(prisma, err);
    throw mapLedgerError(err);
  }
}

/** The ledger accounts a plain hand moves: its players' escrows, and the house's rake if any. */
function handAccountRefs(hand: NormalizedHand): AccountRef[] {
  const refs: AccountRef[] = hand.players.map((p) => escrowAccount(hand.roomId, p.userId));
  if (hand.rake > 0n) refs.push(HOUSE_RAKE);
  return refs;
}

/** A replay of a persisted hand is a no-op; the same id with other content is a conflict. */
function checkReplay(hand: NormalizedHand, existing: PersistedHandRow): void {
  const same =
    existing.roomId === hand.roomId &&
    existing.handNo === hand.handNo &&
    existing.players.length === hand.players.length &&
    hand.players.every((p) =>
      existing.players.some((e) => e.seat === p.seat && e.userId === p.userId && e.finalStack === p.finalStack),
    );
  if (!same) throw new HandConflictError(hand.handId, hand.roomId, hand.handNo, 'persisted with different content');
}

/**
 * A hand its table left behind: queued under an older epoch than the one the table was last built
 * again from the room rows under, and numbered after the hand it went on from (sealRoomRebuild). A
 * hand that says no epoch (an unfenced producer) is never superseded.
 */
function isSuperseded(hand: NormalizedHand, room: LockedRoomRow): boolean {
  return hand.epoch !== undefined && hand.epoch < room.rebuiltEpoch && hand.handNo > room.rebuiltHandNo;
}

/** Hands of a room are written strictly in order: each one right after the room's cursor. */
function checkNumber(hand: NormalizedHand, lastHandNo: number): void {
  if (hand.handNo <= lastHandNo) {
    throw new HandConflictError(hand.handId, hand.roomId, hand.handNo, 'another hand has this number');
  }
  if (hand.handNo > lastHandNo + 1) throw new HandNotReadyError(hand.handId, hand.roomId, hand.handNo, lastHandNo);
}

/**
 * Reconciles before moving anything: escrow = the stack before this hand + top-ups not in it, that
 * is those still pending and those a cash-out reported added after this hand (its chips wait in the
 * escrow for hands up to the cash-out's last one, this one included).
 */
function checkEscrows(
  hand: NormalizedHand,
  topUps: readonly TopUpRow[],
  balanceOf: (key: string) => bigint | undefined,
  /** Top-ups applied by this hand or an earlier one of its batch: no longer pending. */
  applied: ReadonlySet<string>,
): void {
  const pendingBy = new Map<string, bigint>();
  for (const t of topUps) {
    if (t.roomId !== hand.roomId || applied.has(t.id)) continue;
    const amount =
      t.status === TopUpStatus.pending
        ? t.amount
        : t.status === TopUpStatus.applied && t.appliedHandNo !== null && t.appliedHandNo > hand.handNo
          ? (t.appliedAmount ?? 0n)
          : 0n;
    if (amount !== 0n) pendingBy.set(t.userId, (pendingBy.get(t.userId) ?? 0n) + amount);
  }
  const mismatches = hand.players.flatMap((p) => {
    const escrow = balanceOf(accountKey(escrowAccount(hand.roomId, p.userId))) ?? 0n;
    const expected = p.startingStack + (pendingBy.get(p.userId) ?? 0n);
    return escrow === expected ? [] : [{ userId: p.userId, seat: p.seat, escrow, expected }];
  });
  if (mismatches.length > 0) throw new EscrowMismatchError(hand.handId, hand.roomId, mismatches);
}

function checkUsers(hand: NormalizedHand, names: ReadonlyMap<string, string>): void {
  const unknown = hand.players.filter((p) => !names.has(p.userId));
  if (unknown.length > 0) {
    throw new HandRecordInvalidError(hand.handId, [`unknown users: ${unknown.map((p) => p.userId).join(', ')}`]);
  }
}

/**
 * The hand's ledger transactions: each escrow moves by net + rake paid (the winners' gross), which
 * sums to zero; then the rake goes from the escrows that paid it to the house.
 */
function handLedger(hand: NormalizedHand, accounts: ReadonlyMap<string, LockedAccountRow>): HandLedgerTx[] {
  const keys = handLedgerKeys(hand.handId);
  const entry = (ref: AccountRef, amount: bigint) => {
    const key = accountKey(ref);
    const account = accounts.get(key);
    if (!account) throw new LedgerInvalidError(`account ${key} could not be opened`);
    return { accountId: account.id, accountKey: key, amount };
  };
  const txs: HandLedgerTx[] = [];
  const results = hand.players
    .filter((p) => p.net + p.rakePaid !== 0n)
    .map((p) => entry(escrowAccount(hand.roomId, p.userId), p.net + p.rakePaid));
  if (results.length > 0) {
    txs.push({ idempotencyKey: keys.result, kind: LedgerTxKind.hand_result, ...ids(hand), entries: results });
  }
  if (hand.rake > 0n) {
    const rake = [
      ...hand.players
        .filter((p) => p.rakePaid > 0n)
        .map((p) => entry(escrowAccount(hand.roomId, p.userId), -p.rakePaid)),
      entry(HOUSE_RAKE, hand.rake),
    ];
    txs.push({ idempotencyKey: keys.rake, kind: LedgerTxKind.rake, ...ids(hand), entries: rake });
  }
  for (const t of txs) {
    const sum = t.entries.reduce((a, e) => a + e.amount, 0n);
    if (sum !== 0n || t.entries.length < 2) throw new LedgerUnbalancedError(t.idempotencyKey, sum);
  }
  return txs;
}

function ids(hand: NormalizedHand) {
  return { roomId: hand.roomId, handId: hand.handId, memo: { handNo: hand.handNo } };
}

/**
 * The top-ups a hand reports, as applyTopUps (top-up.ts) applies them: each must be pending at the
 * hand's room and not applied above its amount, or the hand conflicts; the part the table could
 * not add goes back from the escrow to the wallet (`top-up-excess:<id>`, a refund).
 */
function planTopUps(
  hand: NormalizedHand,
  /** The hand's room: its flag says which wallet an excess goes back to. */
  room: { readonly practice: boolean },
  rows: readonly TopUpRow[],
  accounts: ReadonlyMap<string, LockedAccountRow>,
  /** Top-ups an earlier hand of the batch applies. */
  appliedBefore: ReadonlySet<string>,
): HandLedgerTx[] {
  const refunds: HandLedgerTx[] = [];
  for (const a of hand.topUps) {
    const row = rows.find((r) => r.id === a.id);
    const status = appliedBefore.has(a.id) ? TopUpStatus.applied : row?.status;
    const problem =
      !row || row.roomId !== hand.roomId
        ? `top-up ${a.id} does not exist at this room`
        : status !== TopUpStatus.pending
          ? `top-up ${a.id} is already ${status}`
          : a.applied > row.amount
            ? `top-up ${a.id} applied ${a.applied} of ${row.amount}`
            : null;
    if (problem !== null || !row) {
      throw new HandConflictError(hand.handId, hand.roomId, hand.handNo, problem ?? 'top-up');
    }
    if (a.applied === row.amount) continue;
    const excess = row.amount - a.applied;
    const entry = (ref: AccountRef, amount: bigint) => {
      const key = accountKey(ref);
      const account = accounts.get(key);
      if (!account) throw new LedgerInvalidError(`account ${key} could not be opened`);
      return { accountId: account.id, accountKey: key, amount };
    };
    refunds.push({
      idempotencyKey: `top-up-excess:${row.id}`,
      kind: LedgerTxKind.refund,
      roomId: row.roomId,
      handId: null,
      memo: null,
      entries: [entry(escrowAccount(row.roomId, row.userId), -excess), entry(walletFor(room, row.userId), excess)],
    });
  }
  return refunds;
}

/** Moves the balances a plan will move. */
function applyEntries(t: HandLedgerTx, balances: Map<string, bigint>): void {
  for (const e of t.entries) balances.set(e.accountKey, (balances.get(e.accountKey) ?? 0n) + e.amount);
}

async function writeHand(tx: TxClient, hand: NormalizedHand, now: Date): Promise<PersistResult> {
  const room = await lockRoomRow(tx, hand.roomId);
  if (!room) throw new HandRecordInvalidError(hand.handId, [`room ${hand.roomId} does not exist`]);

  const sql = prismaSql(tx);
  const refs = handAccountRefs(hand);
  const keys = refs.map(accountKey);
  let ctx = await readHandContexts(sql, [hand], keys);
  const existing = ctx.existing.get(hand.handId);
  if (existing) {
    checkReplay(hand, existing);
    return { result: 'duplicate', handId: hand.handId, cashOuts: [] };
  }
  if (isSuperseded(hand, room)) return { result: 'superseded', handId: hand.handId, cashOuts: [] };
  checkNumber(hand, room.lastHandNo);

  // Cash-outs this hand releases touch more accounts: every account the transaction may touch is
  // then locked once more, all together in key order (see lockLedgerAccounts), and a missing one
  // is opened (then read again).
  const leaving = ctx.pendingCashOuts.filter((c) => c.roomId === hand.roomId && c.lastHandNo <= hand.handNo);
  const missing = keys.some((k) => !ctx.accounts.has(k));
  if (leaving.length > 0 || missing) {
    for (const { userId } of leaving) refs.push(escrowAccount(hand.roomId, userId), walletFor(room, userId));
    await lockLedgerAccounts(tx, refs);
    if (missing) ctx = await readHandContexts(sql, [hand], keys);
  }

  const accounts = ctx.accounts;
  const balances = new Map([...accounts].map(([key, a]) => [key, a.balance]));
  const topUps = planTopUps(hand, room, ctx.topUps, accounts, new Set());
  for (const t of topUps) applyEntries(t, balances);
  checkEscrows(hand, ctx.topUps, (key) => balances.get(key), new Set(hand.topUps.map((t) => t.id)));
  const ledger = [...topUps, ...handLedger(hand, accounts)];
  checkUsers(hand, ctx.userNames);
  await insertHands(sql, [{ hand, names: ctx.userNames, ledger }], now);
  await advanceRoomCursors(sql, [{ roomId: hand.roomId, handNo: hand.handNo }], now);
  const cashOuts = leaving.length > 0 ? await settleRoomCashOuts(tx, hand.roomId, hand.handNo, now) : [];
  return { result: 'written', handId: hand.handId, cashOuts };
}
/** What each escrow holds once the hand is written: its balance plus the player's net. */
function applyNets(hand: NormalizedHand, balances: Map<string, bigint>): void {
  for (const p of hand.players) {
    const key = accountKey(escrowAccount(hand.roomId, p.userId));
    balances.set(key, (balances.get(key) ?? 0n) + p.net);
  }
  if (hand.rake > 0n) {
    const key = accountKey(HOUSE_RAKE);
    balances.set(key, (balances.get(key) ?? 0n) + hand.rake);
  }
}

/** What persistHands says about each hand it was given. */
export type HandBatchOutcome =
  | { readonly ok: true; readonly hand: NormalizedHand; readonly result: PersistResult }
  | { readonly ok: false; readonly hand: NormalizedHand; readonly error: unknown };

export interface PersistHandsOptions {
  readonly now?: () => Date;
  /**
   * A pg pool on the same database (createPgPool): the batch's statements then run on it rather
   * than through Prisma, at about a quarter of the CPU. Hands that need the ledger functions' path
   * still go through `prisma`.
   */
  readonly pool?: PgPool;
}

/** The refusals persistHand throws for a hand that is wrong or early, as opposed to a failure. */
function isHandRefusal(err: unknown): boolean {
  return (
    err instanceof HandConflictError ||
    err instanceof HandNotReadyError ||
    err instanceof EscrowMismatchError ||
    err instanceof HandRecordInvalidError
  );
}

/**
 * Writes several hands, of one room or many, with the outcome persistHand would give each, in as
 * few statements as it can: the plain ones (no cash-out to settle) in one
 * transaction that locks every room (in id order) and every account (in key order) once, inserts
 * all of them in one statement and moves each room's cursor.
 *
 * - Each hand is still checked on its own, in its room's hand-number order: a replay is a
 *   `duplicate`; a hand whose number is taken, whose content conflicts, whose escrows do not hold
 *   its starting stacks or whose previous hand is missing gets persistHand's error and writes
 *   nothing, and its room's later hands in the batch then go on their own (they wait for it).
 * - A hand with cash-outs to settle (or an account to open), the same hand id twice, and every
 *   later hand of its room go through persistHand once the batch is committed, in hand-number order.
 * - If the batch's transaction fails (the database refused something no check foresaw), nothing
 *   of it is kept and every hand goes through persistHand on its own, so one bad hand costs the
 *   others only a retry.
 */
export async function persistHands(
  prisma: PrismaClient,
  hands: readonly NormalizedHand[],
  options: PersistHandsOptions = {},
): Promise<HandBatchOutcome[]> {
  const now = options.now ?? (() => new Date());
  const retryOn = (err: unknown) => isIdempotencyRace(err) || isHandIdRace(err);
  const pool = options.pool;
  let decided = new Map<number, HandBatchOutcome>();
  if (hands.length > 1 || pool) {
    try {
      await ensureHandPartitions(
        pool ?? prisma,
        hands.map((h) => h.endedAt),
      );
      decided = pool
        ? await withPgTransaction(pool, (client) => writeBatch(pgSql(client), hands, now()), { retryOn })
        : await withTransaction(prisma, (tx) => writeBatch(prismaSql(tx), hands, now()), { retryOn });
    } catch (err) {
      forgetHandPartitionsOn(pool ?? prisma, err);
      decided = new Map();
    }
  }
  const rest = hands
    .map((hand, i) => ({ hand, i }))
    .filter(({ i }) => !decided.has(i))
    .sort((a, b) => a.hand.handNo - b.hand.handNo || a.i - b.i);
  for (const { hand, i } of rest) {
    try {
      decided.set(i, { ok: true, hand, result: await persistHand(prisma, hand, { now }) });
    } catch (error) {
      decided.set(i, { ok: false, hand, error });
    }
  }
  return hands.map((_, i) => decided.get(i)!);
}

async function writeBatch(
  sql: SqlRunner,
  hands: readonly NormalizedHand[],
  now: Date,
): Promise<Map<number, HandBatchOutcome>> {
  const rooms = await lockRoomRows(
    sql,
    hands.map((h) => h.roomId),
  );
  const ctx = await readHandContexts(
    sql,
    hands,
    hands.flatMap((h) => handAccountRefs(h).map(accountKey)),
  );
  let balances = new Map([...ctx.accounts].map(([key, a]) => [key, a.balance]));
  let applied = new Set<string>();
  const decided = new Map<number, HandBatchOutcome>();
  const inserts: HandInsert[] = [];
  // A room's cursor moves one hand per statement: the k-th hand of each room goes in the k-th move.
  const moves: { roomId: string; handNo: number }[][] = [];
  const cursor = new Map<string, number>();
  const seen = new Set<string>();
  // Rooms whose remaining hands go through persistHand after the batch.
  const aside = new Set<string>();
  const order = hands
    .map((hand, i) => ({ hand, i }))
    .sort(
      (a, b) =>
        (a.hand.roomId < b.hand.roomId ? -1 : a.hand.roomId > b.hand.roomId ? 1 : 0) || a.hand.handNo - b.hand.handNo,
    );
  for (const { hand, i } of order) {
    if (seen.has(hand.handId) || aside.has(hand.roomId)) continue;
    seen.add(hand.handId);
    try {
      const room = rooms.get(hand.roomId);
      if (!room) throw new HandRecordInvalidError(hand.handId, [`room ${hand.roomId} does not exist`]);
      const existing = ctx.existing.get(hand.handId);
      if (existing) {
        checkReplay(hand, existing);
        decided.set(i, { ok: true, hand, result: { result: 'duplicate', handId: hand.handId, cashOuts: [] } });
        continue;
      }
      if (isSuperseded(hand, room)) {
        decided.set(i, { ok: true, hand, result: { result: 'superseded', handId: hand.handId, cashOuts: [] } });
        continue;
      }
      const written = cursor.get(hand.roomId) ?? 0;
      checkNumber(hand, Math.max(room.lastHandNo, written));
      const plain =
        !ctx.pendingCashOuts.some((c) => c.roomId === hand.roomId && c.lastHandNo <= hand.handNo) &&
        handAccountRefs(hand).every((ref) => ctx.accounts.has(accountKey(ref)));
      if (!plain) {
        aside.add(hand.roomId);
        continue;
      }
      // Checked against the balances the batch's earlier hands leave, without touching them until
      // this hand is known to be good.
      const after = new Map(balances);
      const topUps = planTopUps(hand, room, ctx.topUps, ctx.accounts, applied);
      for (const t of topUps) applyEntries(t, after);
      const appliedNow = new Set([...applied, ...hand.topUps.map((t) => t.id)]);
      checkEscrows(hand, ctx.topUps, (key) => after.get(key), appliedNow);
      const ledger = [...topUps, ...handLedger(hand, ctx.accounts)];
      checkUsers(hand, ctx.userNames);
      inserts.push({ hand, names: ctx.userNames, ledger });
      applyNets(hand, after);
      balances = after;
      applied = appliedNow;
      (moves[hand.handNo - room.lastHandNo - 1] ??= []).push({ roomId: hand.roomId, handNo: hand.handNo });
      cursor.set(hand.roomId, hand.handNo);
      decided.set(i, { ok: true, hand, result: { result: 'written', handId: hand.handId, cashOuts: [] } });
    } catch (err) {
      if (!isHandRefusal(err)) throw err;
      decided.set(i, { ok: false, hand, error: err });
      aside.add(hand.roomId);
    }
  }
  await insertHands(sql, inserts, now);
  for (const step of moves) await advanceRoomCursors(sql, step, now);
  return decided;
}
