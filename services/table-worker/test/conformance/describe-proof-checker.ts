import { generateKey, initialDeck, jointKey, shuffleDeck, type Ciphertext, type ShuffleCheck } from '@felt/blind';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProofChecker } from '../../src/ports.js';

const CARDS = ['As', 'Kd', 'Qh', 'Jc', 'Ts', '9d', '8h', '7c', '6s', '5d', '4h', '3c'];
// The real lambda: a tampered deck passes a cut-and-choose check with probability 2^-lambda, so a
// smaller one would make the refusals below fail now and then.
const LAMBDA = 40;

/** A real shuffle of a short deck under a two-player key, and its check. */
function shuffleCheck(context = 'felt-eb|t|h|shuffle|0'): ShuffleCheck {
  const Y = jointKey([generateKey().Y, generateKey().Y]);
  const input = initialDeck(CARDS);
  const { output, proof } = shuffleDeck(input, Y, context, { lambda: LAMBDA });
  return { kind: 'shuffle', input, output, jointKey: Y, proof, context, lambda: LAMBDA };
}

function swapped(deck: readonly Ciphertext[]): Ciphertext[] {
  return [deck[1] as Ciphertext, deck[0] as Ciphertext, ...deck.slice(2)];
}

/** Every ProofChecker answers the same; one that runs off the thread keeps the event loop turning. */
export function describeProofChecker(
  name: string,
  make: () => ProofChecker,
  options: { readonly offThread: boolean },
): void {
  describe(`ProofChecker: ${name}`, () => {
    const checker = make();
    afterAll(() => checker.close());
    const valid = shuffleCheck();

    it('accepts a shuffle whose proof verifies', async () => {
      await expect(checker.check(valid)).resolves.toBe(true);
    });

    it('refuses a tampered output, another context, another lambda and garbage', async () => {
      await expect(checker.check({ ...valid, output: swapped(valid.output) })).resolves.toBe(false);
      await expect(checker.check({ ...valid, context: 'felt-eb|t|h|shuffle|1' })).resolves.toBe(false);
      await expect(checker.check({ ...valid, lambda: LAMBDA + 1 })).resolves.toBe(false);
      const garbage = { ...valid, proof: { openings: 'nope' } } as unknown as ShuffleCheck;
      await expect(checker.check(garbage)).resolves.toBe(false);
      await expect(checker.check({ kind: 'other' } as unknown as ShuffleCheck)).resolves.toBe(false);
    });

    it('answers each of many checks at once with its own verdict', async () => {
      const other = shuffleCheck('felt-eb|t|h2|shuffle|3');
      const tasks = [valid, { ...valid, output: swapped(valid.output) }, other, { ...other, jointKey: valid.jointKey }];
      const verdicts = await Promise.all([...tasks, ...tasks].map((t) => checker.check(t)));
      expect(verdicts).toEqual([true, false, true, false, true, false, true, false]);
    });

    if (options.offThread) {
      it('keeps the event loop turning while a check runs', async () => {
        let turns = 0;
        let done = false;
        const spin = (): void => {
          if (done) return;
          turns += 1;
          setImmediate(spin);
        };
        setImmediate(spin);
        const verdict = await checker.check(valid);
        done = true;
        expect(verdict).toBe(true);
        expect(turns).toBeGreaterThan(1);
      });
    }
  });
}
