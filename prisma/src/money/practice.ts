import type { TxClient } from '../client.js';
import { LedgerTxKind } from '../generated/enums.js';
import { LedgerInvalidError } from '../errors.js';
import {
  accountKey,
  lockLedgerAccounts,
  postLedgerTransaction,
  PRACTICE_SOURCE,
  practiceWalletAccount,
  type AccountRef,
} from '../ledger.js';

/**
 * Practice chips (docs/dev/money-flows.md, "Practice chips"): free, on demand, and never real. A
 * practice wallet short of a buy-in is refilled from the practice source up to this many chips, or
 * to the buy-in if that is more.
 */
export const PRACTICE_REFILL_CHIPS = 10_000n;

export interface PracticeRefillRequest {
  readonly userId: string;
  /** The chips the player is about to pay from the practice wallet (a buy-in or top-up). */
  readonly need: bigint;
  /** The refill's ledger key (e.g. `practice-refill:<membership>`): a replay refills nothing more. */
  readonly idempotencyKey: string;
  /**
   * Other accounts the caller will post to in this transaction (the escrow the buy-in pays):
   * locked now with the practice wallet and source, all in one key order.
   */
  readonly alsoLock?: readonly AccountRef[];
}

export interface PracticeRefill {
  /** Chips moved from the practice source by this call (0: the wallet already covered `need`). */
  readonly refilled: bigint;
  /** The practice wallet's balance afterwards. */
  readonly balance: bigint;
}

/**
 * Tops the player's practice wallet up to max(PRACTICE_REFILL_CHIPS, need) when it holds less than
 * `need`; otherwise moves nothing. Runs in the caller's transaction under the practice wallet's row
 * lock, so concurrent refills of one player apply one by one and the later ones find it full.
 */
export async function refillPracticeWallet(tx: TxClient, req: PracticeRefillRequest): Promise<PracticeRefill> {
  if (typeof req.need !== 'bigint' || req.need <= 0n) {
    throw new LedgerInvalidError('a practice refill needs a positive bigint');
  }
  const wallet = practiceWalletAccount(req.userId);
  const earlier = await tx.ledgerTransaction.findUnique({ where: { idempotencyKey: req.idempotencyKey } });
  const locked = await lockLedgerAccounts(tx, [wallet, PRACTICE_SOURCE, ...(req.alsoLock ?? [])]);
  const balance = locked.get(accountKey(wallet))?.balance ?? 0n;
  // A replayed key refilled before: its chips are in the balance already (or were spent).
  if (earlier || balance >= req.need) return { refilled: 0n, balance };
  const target = req.need > PRACTICE_REFILL_CHIPS ? req.need : PRACTICE_REFILL_CHIPS;
  await postLedgerTransaction(tx, {
    idempotencyKey: req.idempotencyKey,
    kind: LedgerTxKind.practice_refill,
    postings: [
      { account: PRACTICE_SOURCE, amount: -(target - balance) },
      { account: wallet, amount: target - balance },
    ],
  });
  return { refilled: target - balance, balance: target };
}
