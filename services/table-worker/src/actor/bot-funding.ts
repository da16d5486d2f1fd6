import type { Logger } from '@felt/platform';
import { BotFundingRefusedError, type MoneySeedSource } from '../money/ports.js';
import { NotOwnerError } from '../ownership/table-ownership.js';
import type { Clock } from '../ports.js';
import type { LiveTable } from '../table/live-table.js';

/** A bot the house bankroll refused is asked for again after this long. */
const BANKROLL_RETRY_MS = 30_000;

/**
 * Funds the bots the table asked for (@felt/db seatBot) before they sit: each becomes a user with
 * a membership and a buy-in from the house bankroll. A refusal is told to the table, which asks
 * again later; NotOwnerError (a newer owner claimed the room) is thrown: nothing more may be
 * written for the table from here.
 */
export async function fundBots(
  live: LiveTable,
  seeds: MoneySeedSource,
  clock: Clock,
  logger: Logger,
  now: number,
): Promise<void> {
  if (seeds.seatBot === undefined) return;
  for (let guard = 0, request = live.nextBotRequest(); guard < 20 && request !== undefined; guard++) {
    try {
      const { membershipId } = await seeds.seatBot({
        roomId: live.tableId,
        botId: request.botId,
        seat: request.seat,
        buyIn: request.stack,
      });
      // The time after the call: funding is a round trip to Postgres.
      live.botFunded(request, membershipId, clock.now());
    } catch (err) {
      if (err instanceof NotOwnerError) throw err;
      if (err instanceof BotFundingRefusedError) {
        // The house bankroll will not stake it: the table says why, and asks again much later.
        logger.warn(
          { tableId: live.tableId, seat: request.seat, reason: err.reason },
          'bot not seated: the house bankroll refused its stake',
        );
        live.botRefused(request, now, BANKROLL_RETRY_MS, err.reason);
      } else {
        logger.warn({ err, tableId: live.tableId, seat: request.seat }, 'bot not funded');
        live.botRefused(request, now);
      }
    }
    request = live.nextBotRequest();
  }
}
