import {
  accountBalance,
  addOnOpen,
  buyTournamentAddOn,
  InsufficientFundsError,
  lateRegistrationOpen,
  mayReEnter,
  Prisma,
  reEntryOpen,
  registerTournamentEntry,
  tournamentPoolPaidIn,
  TournamentRefusal,
  TournamentRefusedError,
  unregisterTournamentEntry,
  walletAccount,
  type PrismaClient,
  type ReEntryFields,
} from '@felt/db';
import { placePrizes } from '@felt/engine';
import {
  safeParseTournamentConfig,
  type LobbyTournamentAddOn,
  type LobbyTournamentDetail,
  type LobbyTournamentEntry,
  type LobbyTournamentSummary,
  type LobbyTournamentUnregistered,
  type TournamentConfig,
} from '@felt/protocol';
import type { Logger } from '@felt/platform';
import { ApiErrorCode, LobbyError } from './errors.js';
import { systemClock, type Clock } from './ports.js';
import type { Attempt } from './throttle.js';
import { UnreadableRows } from './unreadable-rows.js';

export type TournamentListStatus = 'registering' | 'running' | 'finished';

interface TournamentRow {
  id: string;
  name: string;
  format: string;
  status: string;
  config: unknown;
  buy_in: bigint;
  fee: bigint;
  min_entrants: number;
  max_entrants: number;
  starts_at: Date | null;
  created_at: Date;
  registration_closed_at: Date | null;
  re_entry_closed_at: Date | null;
  add_on_until: Date | null;
  add_on_closed_at: Date | null;
  entrants: bigint;
  pool: bigint | null;
}

/** What a summary shows of tournament `t`: its row, the entrants in play and the prize pool's balance. */
const SUMMARY_COLUMNS = Prisma.sql`
  SELECT t."id"::text AS "id", t."name", t."format", t."status"::text AS "status", t."config", t."buy_in", t."fee",
    t."min_entrants", t."max_entrants", t."starts_at", t."created_at", t."registration_closed_at",
    t."re_entry_closed_at", t."add_on_until", t."add_on_closed_at",
    (SELECT count(*) FROM "tournament_entries" e
      WHERE e."tournament_id" = t."id" AND e."status" IN ('registered', 'playing')) AS "entrants",
    (SELECT a."balance" FROM "ledger_accounts" a WHERE a."key" = 'tournament_pool:' || t."id"::text) AS "pool"`;

/**
 * The lobby's view of tournaments: the list, one tournament with its players and payouts, and a
 * player's registration, unregistration and add-on. The money moves in @felt/db (money/tournament.ts), one
 * transaction per call under the tournament's row lock; tournaments are created by an operator
 * (`npm run tournaments`), and played by their director.
 */
/** The per-user throttle of registrations and add-ons (throttle.ts); refuses with rate_limited. */
export interface TournamentGuard {
  tournamentChange(userId: string): Promise<Attempt>;
}

export class Tournaments {
  private readonly unreadable: UnreadableRows;

  constructor(
    private readonly prisma: PrismaClient,
    logger: Logger,
    private readonly clock: Clock = systemClock,
    /** Counts registrations, unregistrations and add-ons per user (FELT_TOURNAMENT_CHANGES_PER_USER a minute). */
    private readonly guard?: TournamentGuard,
  ) {
    this.unreadable = new UnreadableRows(logger, 'tournament');
  }

  /**
   * Registering and running tournaments (or those of one status), soonest start first: a running one
   * with late registration open (`late_registration_open`) still takes entries, and with re-entry open
   * (`re_entry_open`) takes busted players back.
   */
  async list(status: TournamentListStatus | undefined, pageSize: number): Promise<LobbyTournamentSummary[]> {
    const statuses = status ? [status] : ['registering', 'running'];
    const rows = await this.prisma.$queryRaw<TournamentRow[]>`
      ${SUMMARY_COLUMNS} FROM "tournaments" t
      WHERE t."status"::text = ANY(${statuses})
      ORDER BY coalesce(t."starts_at", t."created_at") ASC, t."id"
      LIMIT ${pageSize}`;
    return rows.flatMap((r) => {
      const config = this.readConfig(r);
      return config ? [summaryOf(r, config)] : [];
    });
  }

  /**
   * One tournament, cancelled and finished ones included, as `viewerId` sees it: its players one row
   * per entry paid for (a re-entry is another row beside the busted one), whether the viewer may
   * re-enter now (`can_re_enter`), and the add-on's sale (`add_on_open`, `add_on_until`) and whether
   * the viewer may buy it (`can_add_on`).
   */
  async get(id: string, viewerId: string): Promise<LobbyTournamentDetail> {
    const [row] = await this.prisma.$queryRaw<TournamentRow[]>`
      ${SUMMARY_COLUMNS} FROM "tournaments" t WHERE t."id" = ${id}::uuid`;
    const config = row ? this.readConfig(row) : null;
    if (!row || !config) throw new LobbyError(ApiErrorCode.TOURNAMENT_NOT_FOUND, 'no such tournament');
    const entries = await this.prisma.tournamentEntry.findMany({
      where: { tournamentId: id, status: { not: 'refunded' } },
      select: {
        id: true,
        userId: true,
        status: true,
        place: true,
        prize: true,
        tableId: true,
        entryNo: true,
        addOnAt: true,
        addOnRefundedAt: true,
        user: { select: { name: true } },
      },
      orderBy: [{ place: { sort: 'asc', nulls: 'first' } }, { createdAt: 'asc' }],
    });
    // The chart for the field as it stands: every paid entry's buy-in, re-entries included, and every
    // add-on not refunded (closeTournamentAddOns' prize pool, which the director's payouts share).
    const field = Math.max(2, entries.length);
    const addOns = entries.filter((e) => e.addOnAt !== null && e.addOnRefundedAt === null).length;
    const pool = tournamentPoolPaidIn({
      entries: entries.length,
      buyIn: row.buy_in,
      addOns,
      addOnCost: BigInt(config.addOn?.cost ?? 0),
    });
    const prizes = placePrizes(Number(pool), field);
    const summary = summaryOf(row, config);
    const numbers = entryNumbers(entries);
    const mine = entries.filter((e) => e.userId === viewerId);
    const live = mine.some((e) => e.status === 'registered' || e.status === 'playing');
    // The rule registerTournamentEntry checks for a re-entry: every entry of theirs out (none live),
    // and mayReEnter with their entries paid for.
    const canReEnter = !live && mayReEnter({ status: row.status, ...reEntryFields(row, config) }, mine.length);
    // The rules buyTournamentAddOn checks under the row lock: on sale now, and a playing entry of the
    // viewer's that has not bought it.
    const addOnOnSale =
      row.status === 'running' &&
      config.addOn !== null &&
      addOnOpen({ addOnUntil: row.add_on_until, addOnClosedAt: row.add_on_closed_at }, this.clock.now());
    const canAddOn = addOnOnSale && mine.some((e) => e.status === 'playing' && e.addOnAt === null);
    return {
      ...summary,
      // The resolved config is a valid input too (it parses back to itself); the API documents it so.
      config: config as LobbyTournamentDetail['config'],
      players: entries.map((e) => ({
        user_id: e.userId,
        name: e.user.name,
        entry_no: numbers.get(e.id)!,
        status: e.status as 'registered' | 'playing' | 'busted' | 'finished',
        place: e.place,
        prize: Number(e.prize),
        table_id: e.status === 'playing' ? e.tableId : null,
      })),
      payouts: prizes.map((amount, i) => ({ place: i + 1, amount })),
      registered: live,
      can_re_enter: canReEnter,
      your_table_id: entries.find((e) => e.userId === viewerId && e.status === 'playing')?.tableId ?? null,
      add_on_open: addOnOnSale,
      add_on_until: row.add_on_until?.toISOString() ?? null,
      can_add_on: canAddOn,
    };
  }

  /**
   * Every registration, unregistration and add-on counts against the player's limit, refused or not:
   * a loop of them would take the tournament's row lock and post ledger transactions for everyone else.
   */
  private async counted(userId: string): Promise<void> {
    if (this.guard !== undefined) await (await this.guard.tournamentChange(userId)).succeeded();
  }

  async register(userId: string, tournamentId: string): Promise<LobbyTournamentEntry> {
    await this.counted(userId);
    const { entry, replayed } = await this.refusals(() =>
      registerTournamentEntry(this.prisma, { tournamentId, userId, now: this.clock.now() }),
    );
    return {
      tournament_id: tournamentId,
      entry_no: await this.entryNo(tournamentId, userId, entry.id),
      status: entry.status as 'registered' | 'playing',
      wallet: Number(await accountBalance(this.prisma, walletAccount(userId))),
      replayed,
    };
  }

  async unregister(userId: string, tournamentId: string): Promise<LobbyTournamentUnregistered> {
    await this.counted(userId);
    await this.refusals(() => unregisterTournamentEntry(this.prisma, { tournamentId, userId, now: this.clock.now() }));
    return { tournament_id: tournamentId, wallet: Number(await accountBalance(this.prisma, walletAccount(userId))) };
  }

  /**
   * Buys the add-on for the caller's playing entry while it is on sale (the detail's `can_add_on`):
   * its cost from the wallet into the prize pool, its chips added at the table by the director.
   * Again for the same entry: `replayed`, nothing charged.
   */
  async addOn(userId: string, tournamentId: string): Promise<LobbyTournamentAddOn> {
    await this.counted(userId);
    // The config first: a row whose config does not parse is not shown, so it sells nothing either.
    const row = await this.prisma.tournament.findUnique({ where: { id: tournamentId }, select: { config: true } });
    const parsed = row === null ? null : safeParseTournamentConfig(row.config);
    if (parsed === null || !parsed.success) {
      throw new LobbyError(ApiErrorCode.TOURNAMENT_NOT_FOUND, 'no such tournament');
    }
    const { entry, replayed } = await this.refusals(
      () => buyTournamentAddOn(this.prisma, { tournamentId, userId, now: this.clock.now() }),
      'add-on',
    );
    return {
      tournament_id: tournamentId,
      entry_no: await this.entryNo(tournamentId, userId, entry.id),
      chips: parsed.config.addOn?.chips ?? 0,
      cost: parsed.config.addOn?.cost ?? 0,
      wallet: Number(await accountBalance(this.prisma, walletAccount(userId))),
      replayed,
    };
  }

  /** Entry `entryId`'s number among its player's entries not refunded, as the detail numbers them ({@link entryNumbers}). */
  private async entryNo(tournamentId: string, userId: string, entryId: string): Promise<number> {
    const entries = await this.prisma.tournamentEntry.findMany({
      where: { tournamentId, userId, status: { not: 'refunded' } },
      select: { id: true, userId: true, entryNo: true },
    });
    return entryNumbers(entries).get(entryId)!;
  }

  /** A refusal of @felt/db as the API's error, for an entry (registration, unregistration) or an add-on. */
  private async refusals<T>(fn: () => Promise<T>, purchase: 'entry' | 'add-on' = 'entry'): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof InsufficientFundsError) {
        throw new LobbyError(
          ApiErrorCode.INSUFFICIENT_FUNDS,
          purchase === 'add-on'
            ? "your wallet does not hold the add-on's cost"
            : 'your wallet does not hold the buy-in and fee',
        );
      }
      if (!(err instanceof TournamentRefusedError)) throw err;
      if (purchase === 'add-on') {
        if (err.reason === TournamentRefusal.NOT_FOUND) {
          throw new LobbyError(ApiErrorCode.TOURNAMENT_NOT_FOUND, 'no such tournament');
        }
        if (err.reason === TournamentRefusal.NOT_REGISTERED) {
          throw new LobbyError(ApiErrorCode.NOT_REGISTERED, 'you hold no entry in play in this tournament');
        }
        // add_on_closed: no add-on offered, not on sale yet, or its sale is over.
        throw new LobbyError(ApiErrorCode.TOURNAMENT_CLOSED, 'this tournament sells no add-on now');
      }
      switch (err.reason) {
        case TournamentRefusal.NOT_FOUND:
          throw new LobbyError(ApiErrorCode.TOURNAMENT_NOT_FOUND, 'no such tournament');
        case TournamentRefusal.FULL:
          throw new LobbyError(ApiErrorCode.TOURNAMENT_FULL, 'every place is taken');
        case TournamentRefusal.NOT_REGISTERED:
          throw new LobbyError(ApiErrorCode.NOT_REGISTERED, 'you are not registered for this tournament');
        case TournamentRefusal.ENTRY_LIMIT:
          // Either limit: unregistrations before the start, or re-entries (the config's reEntry.max).
          throw new LobbyError(
            ApiErrorCode.TOURNAMENT_ENTRY_LIMIT,
            'you may not enter this tournament again: your re-entries are used up, or you unregistered too many times',
          );
        default:
          // Started or past its start time, registration closed, or a re-entry not offered or closed.
          throw new LobbyError(ApiErrorCode.TOURNAMENT_CLOSED, 'this tournament takes no registrations now');
      }
    }
  }

  /** The stored config, or null (logged once) for a row that does not parse: it is left out, not a 500. */
  private readConfig(row: TournamentRow): TournamentConfig | null {
    const parsed = safeParseTournamentConfig(row.config);
    if (parsed.success) return parsed.config;
    this.unreadable.report(row.id, parsed.error.issues);
    return null;
  }
}

/**
 * Each entry's number among its player's entries not refunded: 1, 2, … in entry_no order (the order
 * they were paid for), as the director numbers them. Postgres's entry_no itself also counts
 * registrations refunded before the start.
 */
export function entryNumbers(
  entries: readonly { readonly id: string; readonly userId: string; readonly entryNo: number }[],
): Map<string, number> {
  const numbers = new Map<string, number>();
  const perUser = new Map<string, number>();
  for (const e of [...entries].sort((a, b) => a.entryNo - b.entryNo)) {
    const n = (perUser.get(e.userId) ?? 0) + 1;
    perUser.set(e.userId, n);
    numbers.set(e.id, n);
  }
  return numbers;
}

/** What reEntryOpen and mayReEnter read of tournament `r`, its config resolved. */
function reEntryFields(r: TournamentRow, config: TournamentConfig): ReEntryFields {
  return {
    reEntryMax: config.reEntry?.max ?? 0,
    lateRegistrationLevels: config.lateRegistrationLevels,
    registrationClosedAt: r.registration_closed_at,
    reEntryClosedAt: r.re_entry_closed_at,
  };
}

function summaryOf(r: TournamentRow, config: TournamentConfig): LobbyTournamentSummary {
  return {
    id: r.id,
    name: r.name,
    format: config.format,
    status: r.status as LobbyTournamentSummary['status'],
    game: config.game,
    limit: config.limit,
    seats: config.seats,
    buy_in: Number(r.buy_in),
    fee: Number(r.fee),
    starting_stack: config.startingStack,
    entrants: Number(r.entrants),
    min_entrants: r.min_entrants,
    max_entrants: r.max_entrants,
    starts_at: r.starts_at?.toISOString() ?? null,
    prize_pool: Number(r.pool ?? 0n),
    created_at: r.created_at.toISOString(),
    // The rules registerTournamentEntry checks under the row lock, as the list shows them.
    late_registration_open:
      r.status === 'running' &&
      lateRegistrationOpen({
        lateRegistrationLevels: config.lateRegistrationLevels,
        registrationClosedAt: r.registration_closed_at,
      }),
    re_entry_open: r.status === 'running' && reEntryOpen(reEntryFields(r, config)),
  };
}
