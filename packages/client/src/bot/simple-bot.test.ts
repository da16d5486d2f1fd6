import type { ValidActionsView } from '@felt/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseDecision } from './simple-bot.js';

const base: ValidActionsView = {
  fold: false,
  check: true,
  call: null,
  bet: { min: 20, max: 500 },
  raise: null,
  all_in: 500,
  bring_in: null,
  complete: null,
  discard: null,
  current_bet: 0,
  player_bet: 0,
  stack: 500,
  pot: 30,
};

describe('chooseDecision', () => {
  it('only ever picks what valid_actions allows, with amounts in range', () => {
    const facing: ValidActionsView = {
      ...base,
      check: false,
      fold: true,
      call: 20,
      bet: null,
      raise: { min: 40, max: 500 },
    };
    const fixed: ValidActionsView = { ...facing, raise: { min: 40, max: 40, choices: [40] } };
    const draw: ValidActionsView = { ...base, bet: null, all_in: null, discard: { max: 3 } };
    const stud: ValidActionsView = { ...base, check: false, bet: null, bring_in: 5, complete: { min: 20, max: 20 } };
    fc.assert(
      fc.property(
        fc.constantFrom(base, facing, fixed, draw, stud),
        fc.infiniteStream(fc.double({ min: 0, max: 0.999 })),
        (valid, stream) => {
          const it = stream[Symbol.iterator]();
          const d = chooseDecision(valid, () => it.next().value as number, ['As', 'Kd', '7c', '2h', '9s']);
          switch (d.action) {
            case 'check':
              return valid.check;
            case 'call':
              return valid.call !== null;
            case 'fold':
              return valid.fold;
            case 'bet':
              return valid.bet !== null && d.amount! >= valid.bet.min && d.amount! <= valid.bet.max;
            case 'raise':
              return (
                valid.raise !== null &&
                d.amount! >= valid.raise.min &&
                d.amount! <= valid.raise.max &&
                (valid.raise.choices === undefined || valid.raise.choices.includes(d.amount!))
              );
            case 'discard':
              return valid.discard !== null && d.cards!.length <= valid.discard.max;
            case 'bring_in':
              return valid.bring_in !== null;
            case 'complete':
              return valid.complete !== null && d.amount === 20;
            case 'all_in':
              return valid.all_in !== null;
          }
        },
      ),
      { seed: 3, numRuns: 500 },
    );
    expect(chooseDecision(base, () => 0.99)).toEqual({ action: 'check' });
  });
});
