/**
 * The loud-error guard of docs/engine.md, "Pots, rake, showdown": when pot validation fails, nothing is
 * paid, the hand stays unsettled (phase "showdown") and the error is a typed ShowdownIntegrityError. The
 * pot bookkeeping is made to fail here by swapping the validator; the validator's own detection is tested
 * in pots.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Errors from '../errors.js';
import type * as Pots from './pots.js';
import type * as Helpers from '../../test/helpers.js';

const broken = new Set<string>();
let quickHand: typeof Helpers.quickHand;
let ShowdownIntegrityError: typeof Errors.ShowdownIntegrityError;

// Test workers share their modules between files (vitest.shared.ts): the hand is imported afresh, with
// the swapped validator, after the module registry is reset, and the real one is back for later files.
beforeAll(async () => {
  vi.resetModules();
  vi.doMock('./pots.js', async (importOriginal) => {
    const real = await importOriginal<typeof Pots>();
    const errors = await import('../errors.js');
    return {
      ...real,
      validatePots: (
        handId: string,
        ...rest: Parameters<typeof real.validatePots> extends [string, ...infer R] ? R : never
      ) => {
        if (broken.has(handId)) {
          throw new errors.ShowdownIntegrityError('pot_eligibility_mismatch', 'injected', { handId, pot: 0 });
        }
        real.validatePots(handId, ...rest);
      },
    };
  });
  ({ quickHand } = await import('../../test/helpers.js'));
  ({ ShowdownIntegrityError } = await import('../errors.js'));
});

afterAll(() => {
  vi.doUnmock('./pots.js');
  vi.resetModules();
});

describe('showdown integrity guard', () => {
  it('pays nothing and leaves the hand unsettled', () => {
    const handId = '00000000-0000-4000-8000-00000000dead';
    broken.add(handId);
    const h = quickHand({ stacks: { 1: 100, 2: 100 }, button: 1, handId });
    h.raise(1, 100);
    expect(() => h.call(2)).toThrow(ShowdownIntegrityError);
    expect(h.phase).toBe('showdown');
    expect(h.isComplete).toBe(false);
    expect(h.settlement).toBeNull();
    expect(h.operations.some((o) => o.type === 'award' || o.type === 'hand_end')).toBe(false);
    expect(h.state().players.map((p) => p.stack)).toEqual([0, 0]);
    expect(h.actor).toBeNull();
  });

  it('also guards a hand won by folds', () => {
    const handId = '00000000-0000-4000-8000-00000000beef';
    broken.add(handId);
    const h = quickHand({ stacks: { 1: 100, 2: 100 }, button: 1, handId });
    expect(() => h.fold(1)).toThrow(ShowdownIntegrityError);
    expect(h.settlement).toBeNull();
    expect(h.phase).toBe('showdown');
  });
});
