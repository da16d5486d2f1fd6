/**
 * Tournament money (docs/dev/money-flows.md, "Tournaments"): entries paid into the tournament's prize
 * pool and the house's fee account, refunds when a player unregisters or the tournament is cancelled,
 * add-ons bought into the pool at the first break (and paid back when their player was out before
 * the chips reached the table), and prizes paid out of the pool as places are decided. Tournament
 * chips are not money and never touch the ledger; only these movements do.
 *
 * Every operation runs in one database transaction that first locks the tournament's row, so
 * registrations (re-entries included), the start, a cancellation, the busts, the add-ons and the
 * prizes of one tournament are applied one at a time, and then the ledger accounts in key order (ledger.ts). Each
 * ledger transaction is keyed by the entry (`tournament-entry:<entry>`, `tournament-refund:<entry>`,
 * `tournament-prize:<entry>`, `tournament-add-on:<entry>`, `tournament-add-on-refund:<entry>`), so a
 * retried call moves no chip twice.
 */
import { Prisma, type PrismaClient, type TxClient } from '../client.js';
import { TournamentRefusal, TournamentRefusedError } from '../errors.js';
import { LedgerTxKind, TournamentEntryStatus, TournamentStatus } from '../generated/enums.js';
import {
  HOUSE_FEE,
  accountBalance,
  isIdempotencyRace,
  lockLedgerAccounts,
  postLedgerTransaction,
  tournamentPoolAccount,
  walletAccount,
  type Posting,
} from '../ledger.js';
import { withTransaction } from '../transaction.js';

export interface NewTournament {
  readonly name: string;
  readonly format: 'sit_and_go' | 'scheduled';
  /** The TournamentConfig of @felt/protocol, already validated. */
  readonly config: Prisma.InputJsonValue;
  /** The player who creates it; null for an operator's. */
  readonly createdBy: string | null;
  readonly buyIn: bigint;
  readonly fee: bigint;
  readonly minEntrants: number;
  readonly maxEntrants: number;
  /** Scheduled tournaments only. */
  readonly startsAt: Date | null;
}

/** The fields of @felt/protocol's TournamentConfig the tournament's row repeats (@felt/db does not import it). */
export interface TournamentConfigFields {
  readonly name: string;
  readonly format: 'sit_and_go' | 'scheduled';
  readonly buyIn: number;
  readonly fee: number;
  readonly entrants: { readonly min: number; readonly max: number };
  readonly startsAt: string | null;
}

/** A validated TournamentConfig as the row {@link createTournament} stores: the config and its columns. */
export function newTournament(config: TournamentConfigFields, createdBy: string | null): NewTournament {
  return {
    name: config.name,
    format: config.format,
    config: JSON.parse(JSON.stringify(config)) as Prisma.InputJsonValue,
    createdBy,
    buyIn: BigInt(config.buyIn),
    fee: BigInt(config.fee),
    minEntrants: config.entrants.min,
    maxEntrants: config.entrants.max,
    startsAt: config.startsAt === null ? null : new Date(config.startsAt),
  };
}

export interface TournamentEntryRow {
  readonly id: string;
  readonly tournamentId: string;
  readonly userId: string;
  readonly entryNo: number;
  readonly status: TournamentEntryStatus;
  readonly place: number | null;
  readonly prize: bigint;
}

/**
 * An entry registered or playing: its player is in and cannot register again (they are answered this
 * entry). The field (max_entrants) is not counted in entries: it counts players with any entry not
 * refunded, busted and finished ones included.
 */
const LIVE: TournamentEntryStatus[] = [TournamentEntryStatus.registered, TournamentEntryStatus.playing];

/**
 * An entry the tournament is not done with: live, or busted (out while late registration is open, its
 * place and prize still to come). The tournament cannot finish while one is left.
 */
const UNPLACED: TournamentEntryStatus[] = [...LIVE, TournamentEntryStatus.busted];

/** An entry the player has played and is out of: a re-entry may follow it. */
const OUT: TournamentEntryStatus[] = [TournamentEntryStatus.busted, TournamentEntryStatus.finished];

const LONG_TX = { timeoutMs: 120_000, retryOn: isIdempotencyRace } as const;

export const tournamentLedgerKeys = (entryId: string) => ({
  entry: `tournament-entry:${entryId}`,
  refund: `tournament-refund:${entryId}`,
  prize: `tournament-prize:${entryId}`,
  addOn: `tournament-add-on:${entryId}`,
  addOnRefund: `tournament-add-on-refund:${entryId}`,
});

export async function createTournament(prisma: PrismaClient, t: NewTournament): Promise<{ id: string }> {
  return prisma.tournament.create({
    data: {
      name: t.name,
      format: t.format,
      config: t.config,
      createdBy: t.createdBy,
      buyIn: t.buyIn,
      fee: t.fee,
      minEntrants: t.minEntrants,
      maxEntrants: t.maxEntrants,
      startsAt: t.startsAt,
    },
    select: { id: true },
  });
}

/** Times one player may register again after unregistering from one tournament: each leaves rows behind. */
export const TOURNAMENT_REFUNDS_PER_PLAYER_MAX = 5;

interface LockedTournament {
  id: string;
  status: TournamentStatus;
  startsAt: Date | null;
  buyIn: bigint;
  fee: bigint;
  minEntrants: number;
  maxEntrants: number;
  /** The config's lateRegistrationLevels (0 when absent or not a number: registration closes at the start). */
  lateRegistrationLevels: number;
  /** Set by the director when late registration closed ({@link closeTournamentRegistration}). */
  registrationClosedAt: Date | null;
  /** The config's reEntry.max (0 when reEntry is absent or null: no re-entry). */
  reEntryMax: number;
  /** Set by the director when re-entry closed ({@link closeTournamentReEntry}). */
  reEntryClosedAt: Date | null;
  /** The config's addOn.cost (null when addOn is absent or null: no add-on). */
  addOnCost: bigint | null;
  /** Set by the director when the add-on went on sale: the sale's end ({@link openTournamentAddOn}). */
  addOnUntil: Date | null;
  /** Set by the director when the add-ons closed ({@link closeTournamentAddOns}). */
  addOnClosedAt: Date | null;
}

/**
 * Tournament `t`'s config addOn.cost as SQL (a bigint; null when addOn is absent, null, or its cost not
 * a number): the one reading of it, here and in the audit (money/audit.ts).
 */
export const TOURNAMENT_ADD_ON_COST_SQL = Prisma.sql`CASE WHEN jsonb_typeof(t."config" -> 'addOn' -> 'cost') = 'number'
  THEN floor((t."config" -> 'addOn' ->> 'cost')::numeric)::bigint END`;

/**
 * The chips paid into a tournament's prize pool: each entry not refunded's buy-in (re-entries
 * included) and each add-on not refunded's cost, prizes already paid not deducted. The pool the
 * payouts share ({@link closeTournamentAddOns}, the lobby's payouts) and, less the prizes paid, what
 * the pool holds (the audit).
 */
export function tournamentPoolPaidIn(p: {
  readonly entries: number | bigint;
  readonly buyIn: bigint;
  readonly addOns: number | bigint;
  readonly addOnCost: bigint;
}): bigint {
  return BigInt(p.entries) * p.buyIn + BigInt(p.addOns) * p.addOnCost;
}

async function lockTournament(tx: TxClient, tournamentId: string): Promise<LockedTournament> {
  const [row] = await tx.$queryRaw<LockedTournament[]>`
    SELECT "id"::text AS "id", "status"::text AS "status", "starts_at" AS "startsAt", "buy_in" AS "buyIn", "fee",
      "min_entrants" AS "minEntrants", "max_entrants" AS "maxEntrants",
      CASE WHEN jsonb_typeof("config" -> 'lateRegistrationLevels') = 'number'
        THEN floor(("config" ->> 'lateRegistrationLevels')::numeric)::int ELSE 0 END AS "lateRegistrationLevels",
      "registration_closed_at" AS "registrationClosedAt",
      CASE WHEN jsonb_typeof("config" -> 'reEntry' -> 'max') = 'number'
        THEN floor(("config" -> 'reEntry' ->> 'max')::numeric)::int ELSE 0 END AS "reEntryMax",
      "re_entry_closed_at" AS "reEntryClosedAt",
      ${TOURNAMENT_ADD_ON_COST_SQL} AS "addOnCost",
      "add_on_until" AS "addOnUntil", "add_on_closed_at" AS "addOnClosedAt"
    FROM "tournaments" t WHERE "id" = ${tournamentId}::uuid FOR UPDATE`;
  if (row === undefined)
    throw new TournamentRefusedError(TournamentRefusal.NOT_FOUND, tournamentId, 'no such tournament');
  return {
    ...row,
    buyIn: BigInt(row.buyIn),
    fee: BigInt(row.fee),
    addOnCost: row.addOnCost === null ? null : BigInt(row.addOnCost),
  };
}

const entrySelect = {
  id: true,
  tournamentId: true,
  userId: true,
  entryNo: true,
  status: true,
  place: true,
  prize: true,
} as const;

/** Whether the tournament offers late registration and its director has not closed it yet. */
export function lateRegistrationOpen(t: {
  readonly lateRegistrationLevels: number;
  readonly registrationClosedAt: Date | null;
}): boolean {
  return t.lateRegistrationLevels > 0 && t.registrationClosedAt === null;
}

/** What {@link reEntryOpen} and {@link mayReEnter} read of a tournament. */
export interface ReEntryFields {
  readonly reEntryMax: number;
  readonly lateRegistrationLevels: number;
  readonly registrationClosedAt: Date | null;
  readonly reEntryClosedAt: Date | null;
}

/**
 * Whether the tournament offers re-entry (the config's reEntry, `reEntryMax` its max, 0 without one)
 * and a busted player may buy in again now: late registration is open (a re-entry is a late
 * registration) and the director has not closed re-entry at the end of level reEntry.untilLevel.
 */
export function reEntryOpen(t: ReEntryFields): boolean {
  return t.reEntryMax > 0 && lateRegistrationOpen(t) && t.reEntryClosedAt === null;
}

/**
 * Whether a player who is out of the tournament (`entries` paid for, at least one, all busted or
 * finished) may re-enter now: it is running, {@link reEntryOpen}, and they have made fewer than the
 * config's reEntry.max re-entries (fewer than 1 + max entries paid for).
 */
export function mayReEnter(t: ReEntryFields & { readonly status: string }, entries: number): boolean {
  return t.status === TournamentStatus.running && reEntryOpen(t) && entries > 0 && entries < 1 + t.reEntryMax;
}

/**
 * Registration is open while the tournament is registering and, if scheduled, before its start time;
 * with late registration, also past its start time and while it runs, until the director closes it.
 */
function checkRegistrationOpen(t: LockedTournament, now: Date): void {
  if (t.status === TournamentStatus.running || t.status === TournamentStatus.registering) {
    if (lateRegistrationOpen(t)) return;
    if (t.registrationClosedAt !== null) {
      throw new TournamentRefusedError(
        TournamentRefusal.NOT_REGISTERING,
        t.id,
        `late registration is closed (since ${t.registrationClosedAt.toISOString()})`,
      );
    }
  }
  checkBeforeStart(t, now);
}

/**
 * A running tournament's player who is out (`earlier` entries paid for, all busted or finished) may
 * buy in again while {@link mayReEnter}: refused `entry_limit` once their re-entries are used up
 * while re-entry is open, `not_registering` when it is not.
 */
function checkReEntry(t: LockedTournament, earlier: number): void {
  if (mayReEnter(t, earlier)) return;
  if (t.status === TournamentStatus.running && reEntryOpen(t)) {
    throw new TournamentRefusedError(
      TournamentRefusal.ENTRY_LIMIT,
      t.id,
      `${earlier - 1} of ${t.reEntryMax} re-entries used`,
    );
  }
  let why = 're-entry is closed with late registration';
  if (t.reEntryMax === 0) why = 'you played in it already, and it offers no re-entry';
  else if (t.reEntryClosedAt !== null) why = `re-entry is closed (since ${t.reEntryClosedAt.toISOString()})`;
  throw new TournamentRefusedError(TournamentRefusal.NOT_REGISTERING, t.id, why);
}

/**
 * Registers `userId`: the buy-in into the prize pool and the fee to the house, out of their wallet
 * (InsufficientFundsError, nothing written, when it holds less). Registering again while registered
 * or playing is a no-op that returns the live entry (`replayed`). Refused unless the tournament is
 * taking registrations and has room, and after {@link TOURNAMENT_REFUNDS_PER_PLAYER_MAX}
 * unregistrations of this player (`entry_limit`). It takes them while registering and before its start
 * time, and, with late registration (the config's lateRegistrationLevels > 0), after its start time
 * and while running until the director closes registration ({@link closeTournamentRegistration}); a
 * late entry is `registered` until the director seats it ({@link seatTournamentEntry}).
 *
 * A player whose entries in a running tournament are all out (busted or finished) makes a re-entry: a
 * new row with the next entry_no, paid like any entry (the same ledger transaction, keyed by the new
 * entry). It is taken while {@link reEntryOpen} and while the player has made fewer than the config's
 * reEntry.max re-entries; refused when the tournament offers none or the director closed re-entry
 * (`not_registering`), and once they are used up (`entry_limit`). The field (max_entrants) counts
 * players holding an entry paid for, busted and finished ones included: a first entry, late or not,
 * needs a free place (`full`), a re-entry does not take another.
 */
export async function registerTournamentEntry(
  prisma: PrismaClient,
  req: { readonly tournamentId: string; readonly userId: string; readonly now?: Date },
): Promise<{ entry: TournamentEntryRow; replayed: boolean }> {
  return withTransaction(
    prisma,
    async (tx) => {
      const t = await lockTournament(tx, req.tournamentId);
      const live = await tx.tournamentEntry.findFirst({
        where: { tournamentId: t.id, userId: req.userId, status: { in: LIVE } },
        select: entrySelect,
      });
      if (live !== null) return { entry: live, replayed: true };
      checkRegistrationOpen(t, req.now ?? new Date());
      // Without a live entry, the player's entries paid for are all out: any makes this a re-entry
      // (only a running tournament has entries out; before the start they are registered or refunded).
      const earlier = await tx.tournamentEntry.count({
        where: { tournamentId: t.id, userId: req.userId, status: { in: OUT } },
      });
      if (earlier > 0) checkReEntry(t, earlier);
      const refunds = await tx.tournamentEntry.count({
        where: { tournamentId: t.id, userId: req.userId, status: TournamentEntryStatus.refunded },
      });
      if (refunds >= TOURNAMENT_REFUNDS_PER_PLAYER_MAX) {
        throw new TournamentRefusedError(TournamentRefusal.ENTRY_LIMIT, t.id, `${refunds} entries refunded already`);
      }
      // A place in the field is a player's: busted and finished players keep theirs (a late entry may
      // not take it), and a re-entry stays in its player's.
      if (earlier === 0) {
        const [{ entrants }] = await tx.$queryRaw<[{ entrants: number }]>`
          SELECT count(DISTINCT "user_id")::int AS "entrants" FROM "tournament_entries"
          WHERE "tournament_id" = ${t.id}::uuid AND "status" <> 'refunded'`;
        if (entrants >= t.maxEntrants) {
          throw new TournamentRefusedError(TournamentRefusal.FULL, t.id, `${entrants} of ${t.maxEntrants} entered`);
        }
      }
      const entryNo = 1 + (await tx.tournamentEntry.count({ where: { tournamentId: t.id, userId: req.userId } }));
      const entry = await tx.tournamentEntry.create({
        data: { tournamentId: t.id, userId: req.userId, entryNo },
        select: entrySelect,
      });
      const postings: Posting[] = [
        { account: walletAccount(req.userId), amount: -(t.buyIn + t.fee) },
        { account: tournamentPoolAccount(t.id), amount: t.buyIn },
        { account: HOUSE_FEE, amount: t.fee },
      ];
      // A freeroll moves no chip and has no ledger transaction.
      if (t.buyIn + t.fee > 0n) {
        await postLedgerTransaction(tx, {
          idempotencyKey: tournamentLedgerKeys(entry.id).entry,
          kind: LedgerTxKind.tournament_entry,
          tournamentId: t.id,
          postings,
        });
      }
      return { entry, replayed: false };
    },
    { retryOn: isIdempotencyRace },
  );
}

/**
 * Registering and before its start time: when unregistration is open (late registration or not), and
 * registration without late registration.
 */
function checkBeforeStart(t: LockedTournament, now: Date): void {
  if (t.status !== TournamentStatus.registering) {
    throw new TournamentRefusedError(TournamentRefusal.NOT_REGISTERING, t.id, `it is ${t.status}`);
  }
  if (t.startsAt !== null && t.startsAt.getTime() <= now.getTime()) {
    throw new TournamentRefusedError(
      TournamentRefusal.NOT_REGISTERING,
      t.id,
      `it started at ${t.startsAt.toISOString()}`,
    );
  }
}

async function refundEntry(tx: TxClient, t: LockedTournament, entry: { id: string; userId: string }): Promise<void> {
  await tx.tournamentEntry.update({
    where: { id: entry.id },
    data: { status: TournamentEntryStatus.refunded, refundedAt: new Date() },
  });
  if (t.buyIn + t.fee === 0n) return;
  await postLedgerTransaction(tx, {
    idempotencyKey: tournamentLedgerKeys(entry.id).refund,
    kind: LedgerTxKind.tournament_refund,
    tournamentId: t.id,
    postings: [
      { account: tournamentPoolAccount(t.id), amount: -t.buyIn },
      { account: HOUSE_FEE, amount: -t.fee },
      { account: walletAccount(entry.userId), amount: t.buyIn + t.fee },
    ],
  });
}

/**
 * Unregisters `userId` before the start: their buy-in and fee go back to their wallet. Refused when
 * they are not registered (a second call: `not_registered`) or the tournament has started (or its
 * start time has come): a late registration cannot be taken back.
 */
export async function unregisterTournamentEntry(
  prisma: PrismaClient,
  req: { readonly tournamentId: string; readonly userId: string; readonly now?: Date },
): Promise<{ entryId: string }> {
  return withTransaction(
    prisma,
    async (tx) => {
      const t = await lockTournament(tx, req.tournamentId);
      checkBeforeStart(t, req.now ?? new Date());
      const entry = await tx.tournamentEntry.findFirst({
        where: { tournamentId: t.id, userId: req.userId, status: TournamentEntryStatus.registered },
        select: { id: true, userId: true },
      });
      if (entry === null)
        throw new TournamentRefusedError(TournamentRefusal.NOT_REGISTERED, t.id, 'no entry to refund');
      await refundEntry(tx, t, entry);
      return { entryId: entry.id };
    },
    { retryOn: isIdempotencyRace },
  );
}

/**
 * Calls the tournament off before its start and refunds every entry. Cancelling a cancelled
 * tournament again changes nothing (`replayed`); one that has started is refused.
 */
export async function cancelTournament(
  prisma: PrismaClient,
  tournamentId: string,
): Promise<{ refunded: number; replayed: boolean }> {
  return withTransaction(
    prisma,
    async (tx) => {
      const t = await lockTournament(tx, tournamentId);
      if (t.status === TournamentStatus.cancelled) return { refunded: 0, replayed: true };
      if (t.status !== TournamentStatus.registering) {
        throw new TournamentRefusedError(TournamentRefusal.NOT_REGISTERING, t.id, `it is ${t.status}`);
      }
      const entries = await tx.tournamentEntry.findMany({
        where: { tournamentId: t.id, status: TournamentEntryStatus.registered },
        select: { id: true, userId: true },
        orderBy: { createdAt: 'asc' },
      });
      // Every account the refunds touch, locked once in key order (ledger.ts): refunds posted one by
      // one would lock the wallets in entry order and could deadlock with a hand locking them in key order.
      if (t.buyIn + t.fee > 0n && entries.length > 0) {
        await lockLedgerAccounts(tx, [
          HOUSE_FEE,
          tournamentPoolAccount(t.id),
          ...entries.map((e) => walletAccount(e.userId)),
        ]);
      }
      for (const entry of entries) await refundEntry(tx, t, entry);
      await tx.tournament.update({
        where: { id: t.id },
        data: { status: TournamentStatus.cancelled, cancelledAt: new Date() },
      });
      return { refunded: entries.length, replayed: false };
    },
    LONG_TX,
  );
}

/**
 * Starts the tournament: every registered entry is now playing. Refused (`too_few`, nothing changed)
 * with fewer entries than its minimum; starting a running tournament again returns its entries.
 */
export async function startTournament(
  prisma: PrismaClient,
  tournamentId: string,
): Promise<{ entries: TournamentEntryRow[]; replayed: boolean }> {
  return withTransaction(prisma, async (tx) => {
    const t = await lockTournament(tx, tournamentId);
    if (t.status === TournamentStatus.running) {
      const entries = await tx.tournamentEntry.findMany({
        where: { tournamentId: t.id, status: { not: TournamentEntryStatus.refunded } },
        select: entrySelect,
        orderBy: { createdAt: 'asc' },
      });
      return { entries, replayed: true };
    }
    if (t.status !== TournamentStatus.registering) {
      throw new TournamentRefusedError(TournamentRefusal.NOT_REGISTERING, t.id, `it is ${t.status}`);
    }
    const registered = await tx.tournamentEntry.count({
      where: { tournamentId: t.id, status: TournamentEntryStatus.registered },
    });
    if (registered < t.minEntrants) {
      throw new TournamentRefusedError(TournamentRefusal.TOO_FEW, t.id, `${registered} of at least ${t.minEntrants}`);
    }
    await tx.tournamentEntry.updateMany({
      where: { tournamentId: t.id, status: TournamentEntryStatus.registered },
      data: { status: TournamentEntryStatus.playing },
    });
    await tx.tournament.update({
      where: { id: t.id },
      data: { status: TournamentStatus.running, startedAt: new Date() },
    });
    const entries = await tx.tournamentEntry.findMany({
      where: { tournamentId: t.id, status: TournamentEntryStatus.playing },
      select: entrySelect,
      orderBy: { createdAt: 'asc' },
    });
    return { entries, replayed: false };
  });
}

/**
 * The director saw the entry's player bust while late registration is open, and holds the bust
 * unplaced until the field is final (places and prizes depend on it): the `playing` entry becomes
 * `busted`, off its table, so the lobby can offer a re-entry ({@link registerTournamentEntry}). It is
 * placed and paid later, like a playing one ({@link awardTournamentPlace}). Marking an entry that is
 * out already (busted or finished) changes nothing (`replayed`). Refused for an entry not in play:
 * registered, refunded or unknown (`not_registered`), and outside a running tournament (`not_running`).
 */
export async function markTournamentEntryOut(
  prisma: PrismaClient,
  req: { readonly tournamentId: string; readonly entryId: string },
): Promise<{ replayed: boolean }> {
  return withTransaction(prisma, async (tx) => {
    const t = await lockTournament(tx, req.tournamentId);
    const entry = await tx.tournamentEntry.findFirst({
      where: { id: req.entryId, tournamentId: t.id },
      select: { id: true, status: true },
    });
    if (entry === null)
      throw new TournamentRefusedError(TournamentRefusal.NOT_REGISTERED, t.id, `no entry ${req.entryId}`);
    if (OUT.includes(entry.status)) return { replayed: true };
    if (t.status !== TournamentStatus.running) {
      throw new TournamentRefusedError(TournamentRefusal.NOT_RUNNING, t.id, `it is ${t.status}`);
    }
    if (entry.status !== TournamentEntryStatus.playing) {
      throw new TournamentRefusedError(TournamentRefusal.NOT_REGISTERED, t.id, `entry ${entry.id} is ${entry.status}`);
    }
    await tx.tournamentEntry.update({
      where: { id: entry.id },
      data: { status: TournamentEntryStatus.busted, tableId: null },
    });
    return { replayed: false };
  });
}

/**
 * Gives a playing or busted entry its place and pays its prize out of the prize pool (the amounts
 * come from @felt/engine's placePrizes and shareTiedPlaces). The same award again changes nothing; a
 * different one for a finished entry is refused (`place_conflict`), as is a prize the pool does not
 * hold (InsufficientFundsError): nothing is written then.
 */
export async function awardTournamentPlace(
  prisma: PrismaClient,
  req: { readonly tournamentId: string; readonly entryId: string; readonly place: number; readonly prize: bigint },
): Promise<{ replayed: boolean }> {
  if (!Number.isSafeInteger(req.place) || req.place < 1 || req.prize < 0n) {
    throw new TournamentRefusedError(
      TournamentRefusal.PLACE_CONFLICT,
      req.tournamentId,
      'a place from 1, a prize from 0',
    );
  }
  return withTransaction(
    prisma,
    async (tx) => {
      const t = await lockTournament(tx, req.tournamentId);
      const entry = await tx.tournamentEntry.findFirst({
        where: { id: req.entryId, tournamentId: t.id },
        select: entrySelect,
      });
      if (entry === null)
        throw new TournamentRefusedError(TournamentRefusal.NOT_REGISTERED, t.id, `no entry ${req.entryId}`);
      if (entry.status === TournamentEntryStatus.finished) {
        if (entry.place === req.place && entry.prize === req.prize) return { replayed: true };
        throw new TournamentRefusedError(
          TournamentRefusal.PLACE_CONFLICT,
          t.id,
          `entry ${entry.id} finished ${entry.place} for ${entry.prize}, not ${req.place} for ${req.prize}`,
        );
      }
      if (t.status !== TournamentStatus.running) {
        throw new TournamentRefusedError(TournamentRefusal.NOT_RUNNING, t.id, `it is ${t.status}`);
      }
      if (entry.status !== TournamentEntryStatus.playing && entry.status !== TournamentEntryStatus.busted) {
        throw new TournamentRefusedError(
          TournamentRefusal.NOT_REGISTERED,
          t.id,
          `entry ${entry.id} is ${entry.status}`,
        );
      }
      await tx.tournamentEntry.update({
        where: { id: entry.id },
        data: {
          status: TournamentEntryStatus.finished,
          place: req.place,
          prize: req.prize,
          finishedAt: new Date(),
          tableId: null,
        },
      });
      if (req.prize > 0n) {
        await postLedgerTransaction(tx, {
          idempotencyKey: tournamentLedgerKeys(entry.id).prize,
          kind: LedgerTxKind.tournament_prize,
          tournamentId: t.id,
          postings: [
            { account: tournamentPoolAccount(t.id), amount: -req.prize },
            { account: walletAccount(entry.userId), amount: req.prize },
          ],
          memo: { place: req.place },
        });
      }
      return { replayed: false };
    },
    { retryOn: isIdempotencyRace },
  );
}

/**
 * Ends a running tournament once every entry has its place (none registered, playing or busted) and
 * the prize pool is empty (`not_over` otherwise, nothing changed). Finishing it again changes nothing.
 */
export async function finishTournament(prisma: PrismaClient, tournamentId: string): Promise<{ replayed: boolean }> {
  return withTransaction(prisma, async (tx) => {
    const t = await lockTournament(tx, tournamentId);
    if (t.status === TournamentStatus.finished) return { replayed: true };
    if (t.status !== TournamentStatus.running) {
      throw new TournamentRefusedError(TournamentRefusal.NOT_RUNNING, t.id, `it is ${t.status}`);
    }
    const stillIn = await tx.tournamentEntry.count({ where: { tournamentId: t.id, status: { in: UNPLACED } } });
    const pool = await accountBalance(tx, tournamentPoolAccount(t.id));
    if (stillIn > 0 || pool !== 0n) {
      throw new TournamentRefusedError(
        TournamentRefusal.NOT_OVER,
        t.id,
        `${stillIn} entries in play or not placed yet, ${pool} in the pool`,
      );
    }
    await tx.tournament.update({
      where: { id: t.id },
      data: { status: TournamentStatus.finished, finishedAt: new Date() },
    });
    return { replayed: false };
  });
}

/** The tournament's columns the director sets once: a close's time, or the add-on sale's end. */
type DirectorMark = 'registrationClosedAt' | 'reEntryClosedAt' | 'addOnUntil' | 'addOnClosedAt';

/**
 * What the director's once-only steps share ({@link closeTournamentRegistration},
 * {@link closeTournamentReEntry}, {@link openTournamentAddOn}, {@link closeTournamentAddOns}): under
 * the tournament's row lock, `mark` already set is a replay (`at` its value), whatever the
 * tournament's status by then; a first one is refused unless the tournament is running (`not_running`)
 * and `check` passes, and then `mark` is set to `value` (now when none is given).
 */
async function setOnce(
  tx: TxClient,
  tournamentId: string,
  mark: DirectorMark,
  { value, check }: { readonly value?: Date; readonly check?: (t: LockedTournament) => void } = {},
): Promise<{ t: LockedTournament; at: Date; replayed: boolean }> {
  const t = await lockTournament(tx, tournamentId);
  const set = t[mark];
  if (set !== null) return { t, at: set, replayed: true };
  if (t.status !== TournamentStatus.running) {
    throw new TournamentRefusedError(TournamentRefusal.NOT_RUNNING, t.id, `it is ${t.status}`);
  }
  check?.(t);
  const at = value ?? new Date();
  const data: Prisma.TournamentUpdateInput = { [mark]: at };
  await tx.tournament.update({ where: { id: t.id }, data });
  return { t, at, replayed: false };
}

/** The tournament's entries paid for and not refunded (busted, finished and re-entries included): the field. */
function entriesNotRefunded(tx: TxClient, tournamentId: string): Promise<number> {
  return tx.tournamentEntry.count({ where: { tournamentId, status: { not: TournamentEntryStatus.refunded } } });
}

/**
 * Closes late registration, as the director does at the end of the config's lateRegistrationLevels-th
 * level: `registration_closed_at` is set once, and from then on {@link registerTournamentEntry} refuses
 * (re-entries too). Returns the field as it closed: the entries paid for (not refunded: busted,
 * finished and re-entries included, each one buy-in in the pool the payouts share) and the prize
 * pool's balance. Closing again changes nothing and returns the same field (`replayed`, with the
 * first close's time), whatever the tournament's status by then; a first close is refused unless the
 * tournament is running (`not_running`).
 */
export async function closeTournamentRegistration(
  prisma: PrismaClient,
  tournamentId: string,
): Promise<{ closedAt: Date; entries: number; prizePool: bigint; replayed: boolean }> {
  return withTransaction(prisma, async (tx) => {
    const { t, at: closedAt, replayed } = await setOnce(tx, tournamentId, 'registrationClosedAt');
    const entries = await entriesNotRefunded(tx, t.id);
    const prizePool = await accountBalance(tx, tournamentPoolAccount(t.id));
    return { closedAt, entries, prizePool, replayed };
  });
}

/**
 * Closes re-entry, as the director does at the end of the config's reEntry.untilLevel-th level:
 * `re_entry_closed_at` is set once, and from then on {@link registerTournamentEntry} refuses a busted
 * player (`not_registering`) while late registration may stay open to new players. Closing again
 * changes nothing (`replayed`, with the first close's time), whatever the tournament's status by then;
 * a first close is refused unless the tournament is running (`not_running`).
 */
export async function closeTournamentReEntry(
  prisma: PrismaClient,
  tournamentId: string,
): Promise<{ closedAt: Date; replayed: boolean }> {
  return withTransaction(prisma, async (tx) => {
    const { at: closedAt, replayed } = await setOnce(tx, tournamentId, 'reEntryClosedAt');
    return { closedAt, replayed };
  });
}

/**
 * Whether the add-on is on sale at `now`: the director opened it (`addOnUntil` set, see
 * {@link openTournamentAddOn}), its end has not come, and the director has not closed the add-ons.
 * (The config's addOn and the tournament's status are the caller's to check.)
 */
export function addOnOpen(
  t: { readonly addOnUntil: Date | null; readonly addOnClosedAt: Date | null },
  now: Date,
): boolean {
  return t.addOnUntil !== null && now.getTime() < t.addOnUntil.getTime() && t.addOnClosedAt === null;
}

/** The config's addOn.cost, or `add_on_closed` when the tournament offers no add-on. */
function addOnCost(t: LockedTournament): bigint {
  if (t.addOnCost === null) {
    throw new TournamentRefusedError(TournamentRefusal.ADD_ON_CLOSED, t.id, 'it offers no add-on');
  }
  return t.addOnCost;
}

/** A running tournament's add-on is on sale at `now` ({@link addOnOpen}); `add_on_closed` otherwise. */
function checkAddOnOnSale(t: LockedTournament, now: Date): void {
  if (t.status === TournamentStatus.running && addOnOpen(t, now)) return;
  let why = `it is ${t.status}`;
  if (t.status === TournamentStatus.running) {
    if (t.addOnClosedAt !== null) why = `the add-ons are closed (since ${t.addOnClosedAt.toISOString()})`;
    else if (t.addOnUntil === null) why = 'it is not on sale yet (it is sold at the first break)';
    else why = `its sale ended at ${t.addOnUntil.toISOString()}`;
  }
  throw new TournamentRefusedError(TournamentRefusal.ADD_ON_CLOSED, t.id, why);
}

/** An entry's row as the money functions answer it, without the add-on's columns. */
function entryRow({ addOnAt: _addOnAt, ...row }: TournamentEntryRow & { addOnAt: Date | null }): TournamentEntryRow {
  return row;
}

/**
 * Puts the add-on on sale, as the director does at the start of the first break: `add_on_until` (the
 * break's end, when the sale ends) is set once. Opening again changes nothing (`replayed`, the first
 * `until` kept), whatever the tournament's status by then; a first opening is refused unless the
 * tournament is running (`not_running`) and its config has addOn (`add_on_closed`).
 */
export async function openTournamentAddOn(
  prisma: PrismaClient,
  tournamentId: string,
  until: Date,
): Promise<{ replayed: boolean }> {
  return withTransaction(prisma, async (tx) => {
    const { replayed } = await setOnce(tx, tournamentId, 'addOnUntil', { value: until, check: addOnCost });
    return { replayed };
  });
}

/**
 * Buys the add-on for `userId`'s playing entry: the config's addOn.cost from their wallet into the
 * prize pool (`tournament-add-on:<entry>`; InsufficientFundsError, nothing written, when the wallet
 * holds less; a cost of 0 posts nothing), and the entry's `add_on_at` set. The director gives the
 * chips at the table ({@link tournamentAddOnsBought}). An entry buys it once: buying again is answered
 * the entry (`replayed`, nothing charged), even once the sale is over. Refused while the add-on is
 * not on sale (`add_on_closed`: the config has none, the tournament is not running, the director has
 * not opened it, `now` is past add_on_until, or the add-ons are closed), and for a player with no
 * playing entry (`not_registered`: not in the tournament, registered and not seated yet, or out).
 */
export async function buyTournamentAddOn(
  prisma: PrismaClient,
  req: { readonly tournamentId: string; readonly userId: string; readonly now?: Date },
): Promise<{ entry: TournamentEntryRow; replayed: boolean }> {
  return withTransaction(
    prisma,
    async (tx) => {
      const t = await lockTournament(tx, req.tournamentId);
      const cost = addOnCost(t);
      const playing = await tx.tournamentEntry.findFirst({
        where: { tournamentId: t.id, userId: req.userId, status: TournamentEntryStatus.playing },
        select: { ...entrySelect, addOnAt: true },
      });
      if (playing !== null && playing.addOnAt !== null) return { entry: entryRow(playing), replayed: true };
      const now = req.now ?? new Date();
      checkAddOnOnSale(t, now);
      if (playing === null) {
        throw new TournamentRefusedError(TournamentRefusal.NOT_REGISTERED, t.id, 'no entry in play');
      }
      const entry = entryRow(playing);
      await tx.tournamentEntry.update({ where: { id: entry.id }, data: { addOnAt: now } });
      if (cost > 0n) {
        await postLedgerTransaction(tx, {
          idempotencyKey: tournamentLedgerKeys(entry.id).addOn,
          kind: LedgerTxKind.tournament_add_on,
          tournamentId: t.id,
          postings: [
            { account: walletAccount(req.userId), amount: -cost },
            { account: tournamentPoolAccount(t.id), amount: cost },
          ],
        });
      }
      return { entry, replayed: false };
    },
    { retryOn: isIdempotencyRace },
  );
}

/**
 * The add-ons bought and not refunded, oldest first: what the director gives at the tables (each
 * once: it keeps which it gave) or refunds ({@link refundTournamentAddOn}).
 */
export async function tournamentAddOnsBought(
  prisma: PrismaClient,
  tournamentId: string,
): Promise<{ entryId: string; userId: string }[]> {
  const rows = await prisma.tournamentEntry.findMany({
    where: { tournamentId, addOnAt: { not: null }, addOnRefundedAt: null },
    select: { id: true, userId: true },
    orderBy: [{ addOnAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((r) => ({ entryId: r.id, userId: r.userId }));
}

/**
 * Pays an add-on back, as the director does when the entry's player was out before it could give
 * the chips: the cost from the prize pool to the wallet (`tournament-add-on-refund:<entry>`; a cost
 * of 0 posts nothing) and the entry's `add_on_refunded_at` set. Again: `replayed`, nothing paid.
 * Refused for an unknown entry (`not_registered`), an entry that bought no add-on (`no_add_on`) and,
 * but for the replay, outside a running tournament (`not_running`: once it finished, its pool is paid
 * out). Also after the close: the director closes the sale first (nothing more is bought), then gives
 * or pays back every add-on bought before it, and reads the close again for the pool the payouts
 * share. Postgres does not record which add-ons were given at a table: only the director's checkpoint
 * keeps one given from being paid back too.
 */
export async function refundTournamentAddOn(
  prisma: PrismaClient,
  req: { readonly tournamentId: string; readonly entryId: string },
): Promise<{ replayed: boolean }> {
  return withTransaction(
    prisma,
    async (tx) => {
      const t = await lockTournament(tx, req.tournamentId);
      const entry = await tx.tournamentEntry.findFirst({
        where: { id: req.entryId, tournamentId: t.id },
        select: { id: true, userId: true, addOnAt: true, addOnRefundedAt: true },
      });
      if (entry === null)
        throw new TournamentRefusedError(TournamentRefusal.NOT_REGISTERED, t.id, `no entry ${req.entryId}`);
      if (entry.addOnAt === null) {
        throw new TournamentRefusedError(TournamentRefusal.NO_ADD_ON, t.id, `entry ${entry.id} bought no add-on`);
      }
      if (entry.addOnRefundedAt !== null) return { replayed: true };
      if (t.status !== TournamentStatus.running) {
        throw new TournamentRefusedError(TournamentRefusal.NOT_RUNNING, t.id, `it is ${t.status}`);
      }
      const cost = addOnCost(t);
      await tx.tournamentEntry.update({ where: { id: entry.id }, data: { addOnRefundedAt: new Date() } });
      if (cost > 0n) {
        await postLedgerTransaction(tx, {
          idempotencyKey: tournamentLedgerKeys(entry.id).addOnRefund,
          kind: LedgerTxKind.tournament_add_on_refund,
          tournamentId: t.id,
          postings: [
            { account: tournamentPoolAccount(t.id), amount: -cost },
            { account: walletAccount(entry.userId), amount: cost },
          ],
        });
      }
      return { replayed: false };
    },
    { retryOn: isIdempotencyRace },
  );
}

/**
 * Closes the add-ons, as the director does once the first break is over: `add_on_closed_at` is set
 * once, and from then on none is bought (one bought before may still be paid back). Returns what the
 * payouts share: `prizePool`,
 * every chip paid into the pool (each entry not refunded's buy-in, re-entries included, and each
 * add-on not refunded's cost; prizes already paid are not deducted), and `entries`, the entries not
 * refunded (the field). Closing again changes nothing (`replayed`, the first close's time) and
 * answers the pool as it is then (less an add-on paid back since); a first close is refused unless
 * the tournament is running (`not_running`) and its config has addOn (`add_on_closed`).
 */
export async function closeTournamentAddOns(
  prisma: PrismaClient,
  tournamentId: string,
): Promise<{ closedAt: Date; prizePool: bigint; entries: number; replayed: boolean }> {
  return withTransaction(prisma, async (tx) => {
    const { t, at: closedAt, replayed } = await setOnce(tx, tournamentId, 'addOnClosedAt', { check: addOnCost });
    // A replay's tournament has addOn too: only a first close, which requires it, sets add_on_closed_at
    // (and the config is written once, at the creation).
    const cost = addOnCost(t);
    const entries = await entriesNotRefunded(tx, t.id);
    const addOns = await tx.tournamentEntry.count({
      where: { tournamentId: t.id, addOnAt: { not: null }, addOnRefundedAt: null },
    });
    const prizePool = tournamentPoolPaidIn({ entries, buyIn: t.buyIn, addOns, addOnCost: cost });
    return { closedAt, prizePool, entries, replayed };
  });
}
