import { ApiErrorCode, retryLater } from './errors.js';

/**
 * A bounded queue for password hashing, shared by sign-up and log-in. scrypt runs on the libuv
 * thread pool and costs tens of milliseconds of CPU and 32 MiB each; unbounded, a burst of
 * sign-ups queues behind itself until every request times out. Here at most `concurrency` hashes
 * run, at most `maxWaiting` requests wait, and anything beyond is refused at once (503 busy with
 * Retry-After, estimated from how long hashes have been taking).
 */
export class HashQueue {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** Moving average of one hash, in ms; the Retry-After estimate. */
  private averageMs = 100;

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be at least 1');
    if (!Number.isInteger(maxWaiting) || maxWaiting < 0) throw new RangeError('maxWaiting must be 0 or more');
  }

  /** Hashes running and waiting now. */
  get load(): { readonly active: number; readonly waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  async run<T>(hash: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active++;
    } else {
      if (this.waiting.length >= this.maxWaiting) {
        const aheadMs = ((this.waiting.length + this.active) / this.concurrency) * this.averageMs;
        throw retryLater(ApiErrorCode.BUSY, 'the server is busy signing people in; try again shortly', aheadMs);
      }
      // The finishing hash hands its slot over: `active` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    const started = performance.now();
    try {
      return await hash();
    } finally {
      this.averageMs = this.averageMs * 0.8 + (performance.now() - started) * 0.2;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
