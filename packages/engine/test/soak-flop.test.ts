/**
 * Reference 004's soak for the flop games: seeded random hands through the bare engine, asserting
 * conservation, winner membership and per-level amounts after every hand (plus best-hand winners).
 * 2 x 2,500 hands per game (rake off and on) in the default run, half of them under the game's default
 * structure and a quarter under each other one, since any game plays under any limit; FELT_SOAK=1
 * (`npm run soak`) plays 2 x 50,000 per game. A failure names the seed that replays it:
 * simulateHand({ ..., seed }).
 */
import { soakGame } from './soak-helpers.js';

soakGame(['holdem', 'omaha', 'omaha5', 'omaha8', 'shortdeck']);
