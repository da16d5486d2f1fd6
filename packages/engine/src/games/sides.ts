import type { Card } from '../cards.js';
import {
  describeHigh,
  describeLow27,
  describeLow8,
  describeLowA5,
  describeOmahaHigh,
  describeOmahaLow8,
  describeShortDeck,
  evaluateHigh,
  evaluateLow27,
  evaluateLow8,
  evaluateLowA5,
  evaluateOmahaHigh,
  evaluateOmahaLow8,
  evaluateShortDeck,
  type HandDescription,
} from '../eval/index.js';
import type { HandSummary, ShowdownSide } from './types.js';

/*
 * The showdown sides of every game. A side judges a player's cards with the board (Stud's rare community
 * card is a board card), and its values are the evaluator's: higher is better, lows included.
 */

function summary(d: HandDescription | null): HandSummary | null {
  return d === null ? null : { name: d.name, best: d.best };
}

const all = (hole: readonly Card[], board: readonly Card[]): Card[] => [...hole, ...board];

/** Best five of the hole cards and the board, high only (Hold'em, Stud). */
export const highSide: ShowdownSide = {
  kind: 'high',
  evaluate: (hole, board) => evaluateHigh(all(hole, board)),
  describe: (hole, board) => summary(describeHigh(all(hole, board))),
};

/** Exactly two hole cards and three board cards (Omaha, PLO5). */
export const omahaHighSide: ShowdownSide = {
  kind: 'high',
  evaluate: (hole, board) => evaluateOmahaHigh(hole, board),
  describe: (hole, board) => summary(describeOmahaHigh(hole, board)),
};

/** Omaha 8-or-better low with the 2+3 rule; null without a qualifying low. */
export const omahaLow8Side: ShowdownSide = {
  kind: 'low',
  evaluate: (hole, board) => evaluateOmahaLow8(hole, board),
  describe: (hole, board) => summary(describeOmahaLow8(hole, board)),
};

/** Short Deck: the 36-card ranking (flush over full house, A-6-7-8-9 the lowest straight). */
export const shortDeckSide: ShowdownSide = {
  kind: 'high',
  evaluate: (hole, board) => evaluateShortDeck(all(hole, board)),
  describe: (hole, board) => summary(describeShortDeck(all(hole, board))),
};

/** Stud 8-or-better: the best A-5 low of the seven cards with five distinct ranks at eight or under. */
export const low8Side: ShowdownSide = {
  kind: 'low',
  evaluate: (hole, board) => evaluateLow8(all(hole, board)),
  describe: (hole, board) => summary(describeLow8(all(hole, board))),
};

/** Razz: A-5 lowball, pairs count against, straights and flushes do not, no qualifier. */
export const lowA5Side: ShowdownSide = {
  kind: 'low',
  evaluate: (hole, board) => evaluateLowA5(all(hole, board)),
  describe: (hole, board) => summary(describeLowA5(all(hole, board))),
};

/** Deuce-to-seven: the five cards in hand, straights and flushes count against, the ace is high. */
export const low27Side: ShowdownSide = {
  kind: 'low',
  evaluate: (hole) => evaluateLow27(hole),
  describe: (hole) => summary(describeLow27(hole)),
};
