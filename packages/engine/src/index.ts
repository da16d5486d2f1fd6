export * from './cards.js';
export * from './eval/index.js';
export * from './fairness/index.js';
export * from './coded-error.js';
export * from './errors.js';
export * from './rng.js';
export * from './betting/structure.js';
export * from './games/types.js';
export { holdem, flopStreets } from './games/holdem.js';
export { omaha, omaha5, omaha8, shortdeck } from './games/omaha.js';
export { stud, stud8, razz } from './games/stud.js';
export { tripleDraw27 } from './games/draw.js';
export {
  highSide,
  omahaHighSide,
  omahaLow8Side,
  shortDeckSide,
  low8Side,
  lowA5Side,
  low27Side,
} from './games/sides.js';
export { bringInKey, visibleHighValue, visibleLowValue } from './games/visible.js';
export {
  MIXED_FORMATS,
  MixedFormat,
  DEFAULT_HANDS_PER_VARIANT,
  isMixedFormat,
  type MixedRotation,
  type RotationEntry,
} from './games/mixed.js';
export { getGameRules, gameIds } from './games/registry.js';
export * from './hand/setup.js';
export * from './hand/operations.js';
export * from './hand/settlement.js';
export { PotManager, levelPots, validatePots, type Pot, type Contribution, type LevelPot } from './hand/pots.js';
export { decideRake, deductRake, RakeRule, type RakeDecision } from './hand/rake.js';
export {
  splitEvenly,
  awardPots,
  decideReveals,
  type PotAward,
  type PotShare,
  type RevealDecision,
} from './hand/showdown.js';
export { orderFromButton, nextSeat, clockwiseRank } from './hand/seats.js';
export { HandDealer } from './hand/deck.js';
export { blindDealPlan, type BlindDealPlan } from './hand/blind-plan.js';
export * from './hand/hand.js';
export * from './table/table.js';
export * from './sim/simulate.js';
export * from './sim/soak.js';
export * from './export/phh.js';
export * from './export/ohh.js';
export * from './tournament/index.js';
export { parseToml, type TomlValue } from './export/toml.js';
