import type { Stakes as EngineStakes, TableConfig } from '@felt/engine';
import type { RaiseCap, RoomConfig, Stakes as RoomStakes, StakesView } from '@felt/protocol';

/** The room's raise cap in the engine's terms: absent for the structure's default, null for none. */
function engineRaiseCap(cap: RaiseCap): { raiseCap?: number | null } {
  if (cap === 'default') return {};
  return { raiseCap: cap === 'none' ? null : cap };
}

/** The room's stakes in the engine's terms (0 means "none" in both). */
function engineStakes(s: RoomStakes, raiseCap: RaiseCap = 'default'): EngineStakes {
  return {
    ...engineRaiseCap(raiseCap),
    smallBlind: s.smallBlind,
    bigBlind: s.bigBlind,
    ante: s.ante,
    bigBlindAnte: s.bigBlindAnte,
    buttonBlind: s.buttonBlind,
    bringIn: s.bringIn,
    smallBet: s.smallBet,
    bigBet: s.bigBet,
  };
}

/** The seating layer's configuration for a room: one game, or the room's mixed rotation. */
export function engineTableConfig(config: RoomConfig, tableName: string): TableConfig {
  const rake =
    config.rake.percent > 0
      ? {
          percent: config.rake.percent,
          cap: config.rake.cap,
          ...(config.rake.headsUpPercent !== null ? { headsUpPercent: config.rake.headsUpPercent } : {}),
          noFlopNoDrop: config.rake.noFlopNoDrop,
        }
      : null;
  return {
    game: config.game,
    limit: config.limit,
    stakes: engineStakes(config.stakes, config.rules.raiseCap),
    maxSeats: config.seats,
    rake,
    showdown: { ...config.rules.showdown },
    houseRules: {
      shortAllInBlind: config.rules.shortAllInBlind,
      oddChips: config.rules.oddChips,
      studOpenPairBigBet: config.rules.studOpenPairBigBet,
      limitHalfBetReopens: config.rules.limitHalfBetReopens,
    },
    sitOutAfterTimeouts: 3,
    tableName,
    ...(config.rotation
      ? {
          rotation: {
            order: config.rotation.order.map((e) => ({
              game: e.game,
              limit: e.limit,
              stakes: engineStakes(e.stakes, config.rules.raiseCap),
              maxSeats: e.maxSeats,
            })),
            handsPerVariant: config.rotation.handsPerVariant,
          },
        }
      : {}),
  };
}

/** Engine stakes as the wire shows them: every field, 0 for none. */
export function stakesView(s: EngineStakes): StakesView {
  return {
    small_blind: s.smallBlind,
    big_blind: s.bigBlind,
    ante: s.ante ?? 0,
    big_blind_ante: s.bigBlindAnte ?? 0,
    button_blind: s.buttonBlind ?? 0,
    bring_in: s.bringIn ?? 0,
    small_bet: s.smallBet ?? s.bigBlind,
    big_bet: s.bigBet ?? (s.smallBet ?? s.bigBlind) * 2,
  };
}
