import { SetupError, SetupErrorCode } from '../errors.js';
import { holdem } from './holdem.js';
import type { GameRules } from './types.js';

const GAMES = new Map<string, GameRules>([[holdem.id, holdem]]);

/** The rules of a game by id; throws {@link SetupError} for an unknown id. */
export function getGameRules(id: string): GameRules {
  const rules = GAMES.get(id);
  if (rules === undefined)
    throw new SetupError(SetupErrorCode.UNKNOWN_GAME, `unknown game ${JSON.stringify(id)}`, { id });
  return rules;
}

export function gameIds(): string[] {
  return [...GAMES.keys()];
}
