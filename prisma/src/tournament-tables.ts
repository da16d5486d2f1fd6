/**
 * What table workers read and write of a running tournament besides its money (money/tournament.ts):
 * its tables, which tournaments a director should run now, and the entrants it seats. The director's
 * own state (who sits where with how many chips) is in its checkpoint, not here.
 */
import type { PrismaClient } from './client.js';
import { TournamentEntryStatus, TournamentStatus } from './generated/enums.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The tournament's tables 1..count, each created once (a repeat returns the same ids), in table order. */
export async function openTournamentTables(
  prisma: PrismaClient,
  tournamentId: string,
  count: number,
): Promise<string[]> {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new RangeError(`a tournament needs 1 or more tables, not ${count}`);
  await prisma.tournamentTable.createMany({
    data: Array.from({ length: count }, (_, i) => ({ tournamentId, tableNo: i + 1 })),
    skipDuplicates: true,
  });
  const rows = await prisma.tournamentTable.findMany({
    where: { tournamentId, tableNo: { lte: count } },
    orderBy: { tableNo: 'asc' },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

export interface TournamentTableRow {
  readonly tableId: string;
  readonly tournamentId: string;
  readonly tableNo: number;
  /** The tournament's config as stored (parse it with @felt/protocol's parseTournamentConfig). */
  readonly config: unknown;
  /** The table was broken or the tournament is over. */
  readonly closed: boolean;
}

/** One tournament table as a worker loads it; null for an id that names none (a room, or nothing). */
export async function loadTournamentTable(prisma: PrismaClient, tableId: string): Promise<TournamentTableRow | null> {
  if (!UUID.test(tableId)) return null;
  const row = await prisma.tournamentTable.findUnique({
    where: { id: tableId },
    select: {
      tournamentId: true,
      tableNo: true,
      closedAt: true,
      tournament: { select: { config: true, status: true } },
    },
  });
  if (row === null) return null;
  return {
    tableId,
    tournamentId: row.tournamentId,
    tableNo: row.tableNo,
    config: row.tournament.config,
    closed: row.closedAt !== null || row.tournament.status !== TournamentStatus.running,
  };
}

/** The tables still open of every running tournament: each worker takes back the ones the ring gives it. */
export async function openTournamentTableIds(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.tournamentTable.findMany({
    where: { closedAt: null, tournament: { status: TournamentStatus.running } },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** Marks a tournament table closed (broken, or the tournament is over); again changes nothing. */
export async function closeTournamentTable(prisma: PrismaClient, tableId: string): Promise<void> {
  await prisma.tournamentTable.updateMany({ where: { id: tableId, closedAt: null }, data: { closedAt: new Date() } });
}

export interface TournamentToDirect {
  readonly id: string;
  readonly status: 'registering' | 'running';
  /** A registering tournament's start is due: a full sit-and-go, or a scheduled one past its time. */
  readonly due: boolean;
}

/**
 * The tournaments a director should run now: every running one (resumed after a failover), and every
 * registering one whose start is due. Registering ones that are not due are not listed.
 */
export async function tournamentsToDirect(prisma: PrismaClient, now: Date): Promise<TournamentToDirect[]> {
  const rows = await prisma.$queryRaw<{ id: string; status: 'registering' | 'running'; due: boolean }[]>`
    SELECT id, status, due FROM (
      SELECT t.id::text AS id, t.status::text AS status, t.created_at,
             t.status = 'registering' AND CASE t.format
               WHEN 'scheduled' THEN t.starts_at <= ${now}
               ELSE (SELECT count(*) FROM tournament_entries e
                      WHERE e.tournament_id = t.id AND e.status = 'registered') >= t.max_entrants
             END AS due
        FROM tournaments t
       WHERE t.status IN ('registering', 'running')
    ) c
     WHERE status = 'running' OR due
     ORDER BY created_at`;
  return rows.map((r) => ({ id: r.id, status: r.status, due: r.due }));
}

/**
 * The director seated the entry's player at a table: the lobby tells them where to sit. A late
 * registrant's `registered` entry becomes `playing` here (only in a running tournament: before the
 * start, startTournament does that). Seating again, or at another table, changes only the table.
 */
export async function seatTournamentEntry(prisma: PrismaClient, entryId: string, tableId: string): Promise<void> {
  await prisma.tournamentEntry.updateMany({
    where: {
      id: entryId,
      OR: [
        { status: TournamentEntryStatus.playing },
        { status: TournamentEntryStatus.registered, tournament: { status: TournamentStatus.running } },
      ],
    },
    data: { tableId, status: TournamentEntryStatus.playing },
  });
}

export interface LateTournamentEntry {
  readonly entryId: string;
  readonly userId: string;
  readonly entryNo: number;
  /** The player's name. */
  readonly name: string;
}

/**
 * The late registrations of a running tournament the director has still to seat (its `registered`
 * entries), oldest first; none for a tournament that is not running (before the start, every
 * registered entry is seated by the draw). Re-entries are among them: a re-entry is a new
 * `registered` row (entry_no 2 and on) beside the player's busted one, seated like any late entry.
 */
export async function lateTournamentEntries(
  prisma: PrismaClient,
  tournamentId: string,
): Promise<LateTournamentEntry[]> {
  const rows = await prisma.tournamentEntry.findMany({
    where: {
      tournamentId,
      status: TournamentEntryStatus.registered,
      tournament: { status: TournamentStatus.running },
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, userId: true, entryNo: true, user: { select: { name: true } } },
  });
  return rows.map((r) => ({ entryId: r.id, userId: r.userId, entryNo: r.entryNo, name: r.user.name }));
}

export interface TournamentPlayer {
  readonly entryId: string;
  readonly userId: string;
  readonly name: string;
}

/**
 * The players of a started tournament (its playing, busted and finished entries), in registration
 * order: one row per entry, so a player who re-entered is listed once per entry.
 */
export async function tournamentPlayers(prisma: PrismaClient, tournamentId: string): Promise<TournamentPlayer[]> {
  const rows = await prisma.tournamentEntry.findMany({
    where: {
      tournamentId,
      status: { in: [TournamentEntryStatus.playing, TournamentEntryStatus.busted, TournamentEntryStatus.finished] },
    },
    orderBy: { createdAt: 'asc' },
    select: { id: true, userId: true, user: { select: { name: true } } },
  });
  return rows.map((r) => ({ entryId: r.id, userId: r.userId, name: r.user.name }));
}
