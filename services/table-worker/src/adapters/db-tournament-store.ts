import {
  TournamentRefusedError,
  accountBalance,
  awardTournamentPlace,
  cancelTournament,
  closeTournamentAddOns,
  closeTournamentReEntry,
  closeTournamentRegistration,
  closeTournamentTable,
  finishTournament,
  lateTournamentEntries,
  markTournamentEntryOut,
  openTournamentAddOn,
  openTournamentTableIds,
  openTournamentTables,
  refundTournamentAddOn,
  seatTournamentEntry,
  startTournament,
  tournamentAddOnsBought,
  tournamentPlayers,
  tournamentPoolAccount,
  tournamentsToDirect,
  type PrismaClient,
} from '@felt/db';
import { safeParseTournamentConfig } from '@felt/protocol';
import {
  TournamentNotStartedError,
  type LateEntry,
  type StartedTournament,
  type TournamentDue,
  type TournamentStore,
} from '../tournament/ports.js';

/** The directors' Postgres side, through @felt/db (docs/dev/money-flows.md, "Tournaments"). */
export class DbTournamentStore implements TournamentStore {
  constructor(private readonly prisma: PrismaClient) {}

  toDirect(now: Date): Promise<TournamentDue[]> {
    return tournamentsToDirect(this.prisma, now);
  }

  async start(tournamentId: string): Promise<StartedTournament> {
    let started;
    try {
      started = await startTournament(this.prisma, tournamentId);
    } catch (err) {
      if (err instanceof TournamentRefusedError)
        throw new TournamentNotStartedError(tournamentId, err.reason, err.message);
      throw err;
    }
    // Started before, and its tables opened, without a checkpoint to show for it: the director's
    // checkpoint is lost (Redis lost its data). Its tables hold players and chips a new draw would
    // not know: it stops here, loudly. (Started but no table opened yet: the first director died
    // before its first checkpoint, and nothing was dealt: the draw is made again.)
    if (started.replayed && (await this.prisma.tournamentTable.count({ where: { tournamentId } })) > 0) {
      throw new TournamentNotStartedError(
        tournamentId,
        'checkpoint_lost',
        'the director’s checkpoint is lost after the draw: an operator must finish it',
      );
    }
    const row = await this.prisma.tournament.findUniqueOrThrow({
      where: { id: tournamentId },
      select: { name: true, config: true },
    });
    const parsed = safeParseTournamentConfig(row.config);
    if (!parsed.success) {
      throw new TournamentNotStartedError(tournamentId, 'invalid_config', 'its stored config no longer parses');
    }
    const [players, pool] = await Promise.all([
      tournamentPlayers(this.prisma, tournamentId),
      accountBalance(this.prisma, tournamentPoolAccount(tournamentId)),
    ]);
    return { name: row.name, config: parsed.config, prizePool: Number(pool), players };
  }

  async cancel(tournamentId: string): Promise<void> {
    await cancelTournament(this.prisma, tournamentId);
  }

  openTables(tournamentId: string, count: number): Promise<string[]> {
    return openTournamentTables(this.prisma, tournamentId, count);
  }

  closeTable(tableId: string): Promise<void> {
    return closeTournamentTable(this.prisma, tableId);
  }

  seated(entryId: string, tableId: string): Promise<void> {
    return seatTournamentEntry(this.prisma, entryId, tableId);
  }

  openTableIds(): Promise<string[]> {
    return openTournamentTableIds(this.prisma);
  }

  async award(tournamentId: string, entryId: string, place: number, prize: number): Promise<void> {
    await awardTournamentPlace(this.prisma, { tournamentId, entryId, place, prize: BigInt(prize) });
  }

  async finish(tournamentId: string): Promise<void> {
    await finishTournament(this.prisma, tournamentId);
  }

  lateEntries(tournamentId: string): Promise<readonly LateEntry[]> {
    return lateTournamentEntries(this.prisma, tournamentId);
  }

  async closeRegistration(tournamentId: string): Promise<{ entries: number; prizePool: number }> {
    const closed = await closeTournamentRegistration(this.prisma, tournamentId);
    return { entries: closed.entries, prizePool: Number(closed.prizePool) };
  }

  async markOut(tournamentId: string, entryId: string): Promise<void> {
    await markTournamentEntryOut(this.prisma, { tournamentId, entryId });
  }

  async closeReEntry(tournamentId: string): Promise<void> {
    await closeTournamentReEntry(this.prisma, tournamentId);
  }

  async openAddOn(tournamentId: string, until: Date): Promise<void> {
    await openTournamentAddOn(this.prisma, tournamentId, until);
  }

  addOnsBought(tournamentId: string): Promise<readonly { entryId: string; userId: string }[]> {
    return tournamentAddOnsBought(this.prisma, tournamentId);
  }

  async refundAddOn(tournamentId: string, entryId: string): Promise<void> {
    await refundTournamentAddOn(this.prisma, { tournamentId, entryId });
  }

  async closeAddOns(tournamentId: string): Promise<{ prizePool: number; entries: number }> {
    const closed = await closeTournamentAddOns(this.prisma, tournamentId);
    return { prizePool: Number(closed.prizePool), entries: closed.entries };
  }
}
