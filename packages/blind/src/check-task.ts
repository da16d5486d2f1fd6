/**
 * A proof check as plain data, and the function that runs it: the table worker sends these to a pool
 * of threads (`piscina` loads this module's default export in each), so that a shuffle's check, about a
 * second of CPU, never holds up the tables on the worker's event loop. Pure and browser-safe, like the
 * rest of the package.
 */
import type { Ciphertext, Hex } from './crypto/index.js';
import { verifyShuffle, type ShuffleProof } from './crypto/index.js';

export interface ShuffleCheck {
  readonly kind: 'shuffle';
  readonly input: readonly Ciphertext[];
  readonly output: readonly Ciphertext[];
  readonly jointKey: Hex;
  readonly proof: ShuffleProof;
  readonly context: string;
  readonly lambda: number;
}

export type BlindCheck = ShuffleCheck;

/** True when the proof verifies; false for anything else, malformed input included. Never throws. */
export function runBlindCheck(task: BlindCheck): boolean {
  if (task.kind !== 'shuffle') return false;
  return verifyShuffle(task.input, task.output, task.jointKey, task.proof, task.context, { lambda: task.lambda });
}

export default runBlindCheck;
