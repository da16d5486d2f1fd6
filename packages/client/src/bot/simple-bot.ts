import type { ValidActionsView } from '@felt/protocol';
import type { Decision } from '../sdk/table-session.js';

/** How a {@link chooseDecision} bot plays; the defaults keep hands short but varied. */
export interface BotStyle {
  /** Chance to bet or raise when allowed. */
  readonly aggression: number;
  /** Chance to fold when facing a bet (and folding is allowed). */
  readonly foldRate: number;
}

export const DEFAULT_BOT_STYLE: BotStyle = { aggression: 0.15, foldRate: 0.2 };

function between(min: number, max: number, random: () => number): number {
  return Math.min(max, min + Math.floor(random() * (Math.min(max, min * 3) - min + 1)));
}

/**
 * A legal decision chosen at random from the turn's valid_actions: a smoke-test and load bot, not a
 * strategy. `holeCards` are the hero's cards (used to pick discards in draw games).
 */
export function chooseDecision(
  valid: ValidActionsView,
  random: () => number,
  holeCards: readonly string[] = [],
  style: BotStyle = DEFAULT_BOT_STYLE,
): Decision {
  if (valid.discard !== null) {
    const count = Math.min(valid.discard.max, holeCards.length, Math.floor(random() * (valid.discard.max + 1)));
    const cards = [...holeCards].sort(() => random() - 0.5).slice(0, count);
    return { action: 'discard', cards };
  }
  if (valid.bring_in !== null) {
    if (valid.complete !== null && random() < style.aggression) {
      return { action: 'complete', amount: valid.complete.choices?.[0] ?? valid.complete.min };
    }
    return { action: 'bring_in' };
  }
  const facingBet = valid.call !== null;
  if (facingBet && valid.fold && random() < style.foldRate) return { action: 'fold' };
  if (random() < style.aggression) {
    const range = valid.raise ?? valid.bet;
    if (range !== null) {
      const amount =
        range.choices?.[Math.floor(random() * range.choices.length)] ?? between(range.min, range.max, random);
      return { action: valid.raise !== null ? 'raise' : 'bet', amount };
    }
  }
  if (valid.check) return { action: 'check' };
  if (valid.call !== null) return { action: 'call' };
  if (valid.all_in !== null) return { action: 'all_in' };
  return { action: 'fold' };
}
