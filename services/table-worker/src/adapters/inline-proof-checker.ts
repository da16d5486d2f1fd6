/**
 * The in-process ProofChecker: the same check on the caller's thread. For tests and tools that drive a
 * table in process; it blocks the event loop for the length of a check, so the worker never uses it.
 */
import { runBlindCheck, type BlindCheck } from '@felt/blind';
import type { ProofChecker } from '../ports.js';

export class InlineProofChecker implements ProofChecker {
  check(task: BlindCheck): Promise<boolean> {
    return Promise.resolve(runBlindCheck(task));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
