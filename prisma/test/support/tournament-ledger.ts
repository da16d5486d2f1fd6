// What the tournament money tests share: players with granted chips, a scheduled tournament's row,
// balances, a refusal read off a promise, and the ledger's conservation and audit checked after a step.
import {
  accountBalance,
  ledgerTotals,
  runAudit,
  TournamentRefusedError,
  tournamentPoolAccount,
  walletAccount,
  type Ledger,
  type NewTournament,
  type Prisma,
  type PrismaClient,
} from '@felt/db';
import { expect } from 'vitest';

let seq = 0;

/** A new user named `<prefix><n>_…` holding `chips` (a capped grant, as sign-up gives). */
export async function playerWithChips(
  prisma: PrismaClient,
  ledger: Ledger,
  prefix: string,
  chips = 1_000n,
): Promise<{ id: string; name: string }> {
  const name = `${prefix}${++seq}_${Math.random().toString(36).slice(2, 8)}`;
  const u = await prisma.user.create({ data: { name, nameKey: name, passwordHash: 'x' } });
  if (chips > 0n) await ledger.grant({ userId: u.id, amount: chips, idempotencyKey: `grant:${u.id}` });
  return { id: u.id, name };
}

/** The TournamentRefusedError `p` rejects with (the test fails if it resolves or rejects otherwise). */
export async function tournamentRefusal(p: Promise<unknown>): Promise<TournamentRefusedError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TournamentRefusedError);
  return err as TournamentRefusedError;
}

/** Every chip granted is somewhere, and the audit finds nothing. */
export async function expectConserved(prisma: PrismaClient): Promise<void> {
  const t = await ledgerTotals(prisma);
  expect(t.wallets + t.escrow + t.rake + t.bankroll + t.tournamentPools + t.fees).toBe(t.granted);
  expect((await runAudit(prisma)).issues).toEqual([]);
}

/**
 * A scheduled tournament's row starting in an hour: 100 into the pool and 10 to the house per entry,
 * 2 to 5 entrants, with `config` (the parts of a TournamentConfig the money paths read).
 */
export function scheduledTournament(
  name: string,
  config: Prisma.InputJsonValue,
  over: Partial<NewTournament> = {},
): NewTournament {
  return {
    name,
    format: 'scheduled',
    config,
    createdBy: null,
    buyIn: 100n,
    fee: 10n,
    minEntrants: 2,
    maxEntrants: 5,
    startsAt: new Date(Date.now() + 3600_000),
    ...over,
  };
}

/** A player's wallet balance. */
export const walletBalance = (prisma: PrismaClient, userId: string): Promise<bigint> =>
  accountBalance(prisma, walletAccount(userId));

/** A tournament's prize pool balance. */
export const poolBalance = (prisma: PrismaClient, tournamentId: string): Promise<bigint> =>
  accountBalance(prisma, tournamentPoolAccount(tournamentId));
