import { SetupError, SetupErrorCode } from '../errors.js';
import { tripleDraw27 } from './draw.js';
import { holdem } from './holdem.js';
import { omaha, omaha5, omaha8, shortdeck } from './omaha.js';
import { razz, stud, stud8 } from './stud.js';
import type { GameRules } from './types.js';

const GAMES = new Map<string, GameRules>(
  [holdem, omaha, omaha5, omaha8, shortdeck, stud, stud8, razz, tripleDraw27].map((g) => [g.id, g]),
);

/** The rules of a game by id; throws {@link SetupError} for an unknown id. */
export function getGameRules(id: string): GameRules {
  const rules = GAMES.get(id);
  if (rules === undefined)
    throw new SetupError(SetupErrorCode.UNKNOWN_GAME, `unknown game ${JSON.stringify(id)}`, { id });
  return rules;
}

/** The single games, in the room config's order (the mixed formats are not games of their own). */
export function gameIds(): string[] {
  return [...GAMES.keys()];
}
