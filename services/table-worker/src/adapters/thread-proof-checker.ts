/**
 * The production ProofChecker: a piscina pool of threads, each running `@felt/blind/check-task`
 * (`runBlindCheck`). The tasks are plain data (the deck's ciphertexts and the proof), copied to the
 * thread; the answer is a boolean. Tasks queue when every thread is busy, so a burst of shuffles costs
 * the tables time to their deal, never their event loop.
 */
import { createRequire } from 'node:module';
import type { BlindCheck } from '@felt/blind';
import { Piscina } from 'piscina';
import type { ProofChecker } from '../ports.js';

const require = createRequire(import.meta.url);

export interface ThreadProofCheckerOptions {
  /** Threads in the pool (FELT_BLIND_CHECK_THREADS); at least 1. */
  readonly threads: number;
  /** A thread idle this long is stopped and started again when needed. */
  readonly idleTimeoutMs?: number;
}

export class ThreadProofChecker implements ProofChecker {
  readonly #pool: Piscina<BlindCheck, boolean>;

  constructor(options: ThreadProofCheckerOptions) {
    const threads = Math.max(1, Math.floor(options.threads));
    this.#pool = new Piscina<BlindCheck, boolean>({
      // The built module: threads run plain JavaScript, in tests too.
      filename: require.resolve('@felt/blind/check-task'),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: options.idleTimeoutMs ?? 60_000,
    });
  }

  /**
   * A malformed task is answered false by the check itself; a pool that cannot run it (a thread that
   * died, a task the structured clone refuses) rejects: that is the worker's failure, never a player's
   * bad proof to blame them for.
   */
  async check(task: BlindCheck): Promise<boolean> {
    return (await this.#pool.run(task)) === true;
  }

  async close(): Promise<void> {
    await this.#pool.destroy();
  }
}
