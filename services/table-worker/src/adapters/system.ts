import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock, RandomSource, Scheduler } from '../ports.js';

export const systemClock: Clock = { now: () => Date.now() };

/** The OS CSPRNG: server seeds come from crypto.randomBytes (docs/fairness.md, "The derivation", step 2). */
export const cryptoRandom: RandomSource = {
  bytes: (n) => new Uint8Array(randomBytes(n)),
  uuid: () => randomUUID(),
};

/** setTimeout on the system clock; long waits are re-armed so a late timer never fires early. */
export function timerScheduler(clock: Clock = systemClock): Scheduler {
  return {
    schedule(at, fn) {
      let timer: NodeJS.Timeout | undefined;
      let cancelled = false;
      const arm = (): void => {
        const wait = Math.max(0, at - clock.now());
        timer = setTimeout(
          () => {
            if (cancelled) return;
            if (clock.now() < at) arm();
            else fn();
          },
          Math.min(wait, 2 ** 31 - 1),
        );
        timer.unref();
      };
      arm();
      return () => {
        cancelled = true;
        if (timer) clearTimeout(timer);
      };
    },
  };
}
