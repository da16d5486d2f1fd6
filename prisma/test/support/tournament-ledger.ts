// What the tournament money tests share: players with granted chips, a refusal read off a promise,
// and the ledger's conservation and audit checked after a step.
import { ledgerTotals, runAudit, TournamentRefusedError, type Ledger, type PrismaClient } from '@felt/db';
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
