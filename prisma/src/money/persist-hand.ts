import type { Prisma, PrismaClient, TxClient } from '../client.js';
import { LedgerTxKind, TopUpStatus } from '../generated/enums.js';
import { EscrowMismatchError, HandConflictError, HandNotReadyError, HandRecordInvalidError } from '../errors.js';
import {
  HOUSE_RAKE,
  escrowAccount,
  isIdempotencyRace,
  lockLedgerAccounts,
  mapLedgerError,
  postLedgerTransaction,
  walletAccount,
  type AccountRef,
  type Posting,
} from '../ledger.js';
import { withTransaction } from '../transaction.js';
import { settleRoomCashOuts, type CashOutOutcome } from './cash-out.js';
import type { NormalizedHand } from './hand-record.js';
import { lockRoomRow } from './room-lock.js';
import { applyTopUps } from './top-up.js';

export type PersistResult =
  | { readonly result: 'written'; readonly handId: string; readonly cashOuts: readonly CashOutOutcome[] }
  | { readonly result: 'duplicate'; readonly handId: string; readonly cashOuts: readonly CashOutOutcome[] };

/** Idempotency keys of a hand's ledger transactions. */
export const handLedgerKeys = (handId: string) => ({ result: `hand:${handId}`, rake: `rake:${handId}` }) as const;

/**
 * Writes one completed hand in one Postgres transaction: the hand row with its seeds,
 * the players dealt in, the operation log in order, every dealt card with its deck index, the pots
 * with their rake, the top-ups the table applied before it, the ledger transactions that move each
 * player's net between escrows and the rake to the house, the room's hand cursor, and the
 * cash-outs that were waiting for this hand.
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
    return await withTransaction(prisma, (tx) => writeHand(tx, hand, now()), {
      retryOn: (err) => isIdempotencyRace(err) || isHandIdRace(err),
    });
  } catch (err) {
    throw mapLedgerError(err);
  }
}

function isHandIdRace(err: unknown): boolean {
  const e = err as { code?: unknown; meta?: { target?: unknown } };
  return e?.code === 'P2002' && JSON.stringify(e.meta?.target ?? '').includes('hand_id');
}

async function writeHand(tx: TxClient, hand: NormalizedHand, now: Date): Promise<PersistResult> {
  const room = await lockRoomRow(tx, hand.roomId);
  if (!room) throw new HandRecordInvalidError(hand.handId, [`room ${hand.roomId} does not exist`]);

  const existing = await tx.hand.findUnique({
    where: { handId: hand.handId },
    select: { roomId: true, handNo: true, players: { select: { seat: true, userId: true, finalStack: true } } },
  });
  if (existing) {
    const same =
      existing.roomId === hand.roomId &&
      existing.handNo === hand.handNo &&
      existing.players.length === hand.players.length &&
      hand.players.every((p) =>
        existing.players.some((e) => e.seat === p.seat && e.userId === p.userId && e.finalStack === p.finalStack),
      );
    if (!same) throw new HandConflictError(hand.handId, hand.roomId, hand.handNo, 'persisted with different content');
    return { result: 'duplicate', handId: hand.handId, cashOuts: [] };
  }
  if (hand.handNo <= room.lastHandNo) {
    throw new HandConflictError(hand.handId, hand.roomId, hand.handNo, 'another hand has this number');
  }
  if (hand.handNo > room.lastHandNo + 1) {
    throw new HandNotReadyError(hand.handId, hand.roomId, hand.handNo, room.lastHandNo);
  }

  // Every account this transaction may touch, locked once in key order (see lockLedgerAccounts).
  const topUps = await tx.topUp.findMany({
    where: { id: { in: hand.topUps.map((t) => t.id) } },
    select: { userId: true },
  });
  const leaving = await tx.cashOut.findMany({
    where: { roomId: hand.roomId, status: 'pending', lastHandNo: { lte: hand.handNo } },
    select: { userId: true },
  });
  const refs: AccountRef[] = hand.players.map((p) => escrowAccount(hand.roomId, p.userId));
  for (const u of [...topUps, ...leaving]) {
    refs.push(escrowAccount(hand.roomId, u.userId), walletAccount(u.userId));
  }
  if (hand.rake > 0n) refs.push(HOUSE_RAKE);
  await lockLedgerAccounts(tx, refs);

  await applyTopUps(tx, { roomId: hand.roomId, handId: hand.handId, handNo: hand.handNo, now }, hand.topUps);

  // Reconcile before moving anything: escrow = the stack before this hand + top-ups not in it, that
  // is those still pending and those a cash-out reported added after this hand (its chips wait in
  // the escrow for hands up to the cash-out's last one, this one included).
  const dealtIn = hand.players.map((p) => p.userId);
  const pending = await tx.topUp.groupBy({
    by: ['userId'],
    where: { roomId: hand.roomId, status: TopUpStatus.pending, userId: { in: dealtIn } },
    _sum: { amount: true },
  });
  const later = await tx.topUp.groupBy({
    by: ['userId'],
    where: {
      roomId: hand.roomId,
      status: TopUpStatus.applied,
      appliedHandNo: { gt: hand.handNo },
      userId: { in: dealtIn },
    },
    _sum: { appliedAmount: true },
  });
  const pendingBy = new Map(pending.map((r) => [r.userId, r._sum.amount ?? 0n]));
  for (const r of later) pendingBy.set(r.userId, (pendingBy.get(r.userId) ?? 0n) + (r._sum.appliedAmount ?? 0n));
  const balances = await tx.ledgerAccount.findMany({
    where: { key: { in: hand.players.map((p) => `escrow:${hand.roomId}:${p.userId}`) } },
    select: { userId: true, balance: true },
  });
  const balanceBy = new Map(balances.map((b) => [b.userId, b.balance]));
  const mismatches = hand.players.flatMap((p) => {
    const escrow = balanceBy.get(p.userId) ?? 0n;
    const expected = p.startingStack + (pendingBy.get(p.userId) ?? 0n);
    return escrow === expected ? [] : [{ userId: p.userId, seat: p.seat, escrow, expected }];
  });
  if (mismatches.length > 0) throw new EscrowMismatchError(hand.handId, hand.roomId, mismatches);

  // The hand's result: each escrow moves by net + rake paid (the winners' gross), which sums to
  // zero; then the rake goes from the escrows that paid it to the house.
  const keys = handLedgerKeys(hand.handId);
  const results: Posting[] = hand.players
    .map((p) => ({ account: escrowAccount(hand.roomId, p.userId), amount: p.net + p.rakePaid }))
    .filter((p) => p.amount !== 0n);
  if (results.length > 0) {
    await postLedgerTransaction(tx, {
      idempotencyKey: keys.result,
      kind: LedgerTxKind.hand_result,
      roomId: hand.roomId,
      handId: hand.handId,
      postings: results,
      memo: { handNo: hand.handNo },
    });
  }
  if (hand.rake > 0n) {
    await postLedgerTransaction(tx, {
      idempotencyKey: keys.rake,
      kind: LedgerTxKind.rake,
      roomId: hand.roomId,
      handId: hand.handId,
      postings: [
        ...hand.players
          .filter((p) => p.rakePaid > 0n)
          .map((p) => ({ account: escrowAccount(hand.roomId, p.userId), amount: -p.rakePaid })),
        { account: HOUSE_RAKE, amount: hand.rake },
      ],
      memo: { handNo: hand.handNo },
    });
  }

  const users = await tx.user.findMany({
    where: { id: { in: hand.players.map((p) => p.userId) } },
    select: { id: true, name: true },
  });
  const nameOf = new Map(users.map((u) => [u.id, u.name]));
  const unknown = hand.players.filter((p) => !nameOf.has(p.userId));
  if (unknown.length > 0) {
    throw new HandRecordInvalidError(hand.handId, [`unknown users: ${unknown.map((p) => p.userId).join(', ')}`]);
  }

  await tx.hand.create({
    data: {
      handId: hand.handId,
      roomId: hand.roomId,
      handNo: hand.handNo,
      game: hand.game,
      limit: hand.limit,
      blinds: hand.blinds ?? {},
      startedAt: hand.startedAt,
      endedAt: hand.endedAt,
      payload: hand.payload as Prisma.InputJsonObject,
      button: hand.button,
      seedCommit: hand.seeds.seedCommit,
      serverSeed: hand.seeds.serverSeed,
      clientSeeds: hand.seeds.clientSeeds,
      deckSeed: hand.seeds.deckSeed,
      derivation: hand.seeds.derivation,
      deckKind: hand.seeds.deckKind,
      board: [...hand.board],
      potTotal: hand.potTotal,
      rake: hand.rake,
    },
  });
  await tx.handPlayer.createMany({
    data: hand.players.map((p) => ({
      handId: hand.handId,
      seat: p.seat,
      userId: p.userId,
      name: p.name ?? nameOf.get(p.userId) ?? '',
      startingStack: p.startingStack,
      contributed: p.contributed,
      returned: p.returned,
      won: p.won,
      rakePaid: p.rakePaid,
      finalStack: p.finalStack,
      net: p.net,
      folded: p.folded,
      endedAt: hand.endedAt,
    })),
  });
  await tx.handAction.createMany({
    data: hand.actions.map((a) => ({
      handId: hand.handId,
      seq: a.seq,
      type: a.type,
      seat: a.seat,
      street: a.street,
      amount: a.amount,
      toAmount: a.to,
      allIn: a.allIn,
      timeout: a.timeout,
      data: a.data as Prisma.InputJsonObject,
    })),
  });
  await tx.handCard.createMany({
    data: hand.cards.map((c) => ({
      handId: hand.handId,
      deckIndex: c.deckIndex,
      card: c.card,
      kind: c.kind,
      seat: c.seat,
      street: c.street,
      faceUp: c.faceUp,
    })),
  });
  if (hand.pots.length > 0) {
    await tx.handPot.createMany({
      data: hand.pots.map((p) => ({
        handId: hand.handId,
        potIndex: p.index,
        amount: p.amount,
        levelFrom: p.from,
        levelTo: p.to,
        eligible: p.eligible,
        contested: p.contested,
        rake: p.rake,
        winners: p.winners,
      })),
    });
  }
  await tx.room.update({ where: { id: hand.roomId }, data: { lastHandNo: hand.handNo } });
  const cashOuts = await settleRoomCashOuts(tx, hand.roomId, hand.handNo, now);
  return { result: 'written', handId: hand.handId, cashOuts };
}
