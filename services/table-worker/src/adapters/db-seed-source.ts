import {
  BankrollRefusedError,
  botName,
  claimRoomEpoch,
  sealRoomRebuild,
  isDatabaseUnavailable,
  loadTableSeed,
  loadTournamentTable,
  seatBot,
  StaleOwnerEpochError,
  type BankrollLimits,
  type PrismaClient,
} from '@felt/db';
import { ErrorCode, safeParseRoomConfig, safeParseTournamentConfig, tournamentTableConfig } from '@felt/protocol';
import { TableError } from '../actor/table-error.js';
import { BotFundingRefusedError, type BotSeatRequest, type MoneySeed, type MoneySeedSource } from '../money/ports.js';
import { StaleEpochError } from '../ports.js';
import { seatCountOf } from './room-seats.js';

/**
 * Reads a room and its active memberships through @felt/db (docs/dev/contracts.md), its host, and
 * whether an operator runs it as a bot-only table; funds and seats the table's bots as users
 * (@felt/db `seatBot`, docs/dev/money-flows.md §1).
 */
export class DbSeedSource implements MoneySeedSource {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly botsOnly: (tableId: string) => Promise<boolean> = () => Promise.resolve(false),
    /** What the house bankroll may stake bots with (FELT_BOT_BANKROLL_ROOM_MAX, FELT_BOT_BANKROLL_DAILY_MAX). */
    private readonly bankrollLimits?: BankrollLimits,
  ) {}

  load(tableId: string): Promise<MoneySeed | null> {
    return whileReachable(tableId, () => this.loadRows(tableId));
  }

  private async loadRows(tableId: string): Promise<MoneySeed | null> {
    const seed = await loadTableSeed(this.prisma, tableId);
    if (!seed) return this.loadTournamentTable(tableId);
    const [host, botsOnly] = await Promise.all([
      this.prisma.room.findUnique({ where: { id: tableId }, select: { hostId: true } }),
      this.botsOnly(tableId),
    ]);
    const config = safeParseRoomConfig(seed.room.config);
    return {
      roomId: seed.room.id,
      status: seed.room.status,
      seatCount: seatCountOf(seed.room.config, seed.members),
      ...(config.success ? { config: config.config } : {}),
      ...(host ? { hostId: host.hostId } : {}),
      botsOnly,
      waitlisted: seed.room.waitlisted,
      lastHandNo: seed.room.lastHandNo,
      members: seed.members.map((m) => ({
        userId: m.userId,
        name: m.name,
        seat: m.seat,
        // Chips are integers well inside 2^53 on any real table; the wire carries numbers.
        stack: Number(m.stack),
        membershipId: m.membershipId,
        pendingTopUps: m.pendingTopUps.map((t) => ({ id: t.id, amount: Number(t.amount) })),
        leaveRequested: m.leaveRequested,
        // seatBot names a bot's user after its id; no sign-up can take such a name.
        bot: m.name === botName(m.userId),
      })),
    };
  }

  /**
   * A tournament's table (`tournament_tables`): the tournament's game, seats and clock, nobody seated
   * (the director seats its players), closed once broken or once the tournament is over.
   */
  private async loadTournamentTable(tableId: string): Promise<MoneySeed | null> {
    const row = await loadTournamentTable(this.prisma, tableId);
    if (row === null) return null;
    const parsed = safeParseTournamentConfig(row.config);
    // A stored config that no longer parses cannot be played: the table is as good as closed.
    if (!parsed.success) return { roomId: tableId, status: 'closed', seatCount: 2, members: [] };
    const config = tournamentTableConfig(parsed.config);
    return {
      roomId: tableId,
      status: row.closed ? 'closed' : 'open',
      seatCount: config.seats,
      config,
      members: [],
      tournament: { tournamentId: row.tournamentId },
    };
  }

  claimEpoch(roomId: string, epoch: number, fresh: boolean): Promise<number> {
    return whileReachable(roomId, () =>
      asStaleEpoch('room claim', () => claimRoomEpoch(this.prisma, roomId, epoch, { fresh })),
    );
  }

  sealRebuild(roomId: string, epoch: number, lastHandNo: number): Promise<boolean> {
    return whileReachable(roomId, () =>
      asStaleEpoch('rebuild seal', () => sealRoomRebuild(this.prisma, roomId, epoch, lastHandNo)),
    );
  }

  /**
   * Fenced by `req.epoch` (rooms.owner_epoch): a stale one throws the ports' StaleEpochError. Staked
   * by the house bankroll within its limits: a refusal throws BotFundingRefusedError.
   */
  async seatBot(req: BotSeatRequest): Promise<{ membershipId: string }> {
    try {
      return await asStaleEpoch('bot seat', () =>
        seatBot(this.prisma, {
          roomId: req.roomId,
          botId: req.botId,
          seat: req.seat,
          buyIn: BigInt(req.buyIn),
          ...(req.epoch !== undefined ? { epoch: req.epoch } : {}),
          ...(this.bankrollLimits !== undefined ? { limits: this.bankrollLimits } : {}),
        }),
      );
    } catch (err) {
      if (err instanceof BankrollRefusedError) throw new BotFundingRefusedError(err.reason, err.message);
      throw err;
    }
  }
}

/**
 * Postgres down, restarting or out of connections (@felt/db isDatabaseUnavailable) as the table's
 * UNAVAILABLE refusal: the gateway keeps the connection's attachment and tries again shortly, a
 * client's join is told to retry, and a table lost with its lease is taken again once the rows
 * answer. Any other failure passes as it is.
 */
async function whileReachable<T>(tableId: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isDatabaseUnavailable(err)) {
      throw new TableError(
        ErrorCode.UNAVAILABLE,
        'the room records are unavailable; retry shortly',
        tableId,
        {},
        {
          cause: err,
        },
      );
    }
    throw err;
  }
}

/** @felt/db's StaleOwnerEpochError as the ports' StaleEpochError, so the directory needs no @felt/db. */
async function asStaleEpoch<T>(write: 'room claim' | 'bot seat' | 'rebuild seal', run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof StaleOwnerEpochError) throw new StaleEpochError(err.roomId, err.epoch, err.current, write);
    throw err;
  }
}
