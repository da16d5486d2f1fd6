/**
 * Reconnect delays: exponential growth with "full jitter" (a uniform draw between 0 and the capped
 * exponential), so that thousands of clients dropped by one gateway do not come back in lockstep.
 */
import { CodedError } from '@felt/engine';

export interface BackoffOptions {
  /** The first retry's ceiling, ms. Default 250. */
  readonly baseMs?: number;
  /** The largest ceiling any retry may have, ms. Default 15 000. */
  readonly maxMs?: number;
  /** Growth factor per failed attempt. Default 2. */
  readonly factor?: number;
}

export const DEFAULT_BACKOFF: Required<BackoffOptions> = { baseMs: 250, maxMs: 15_000, factor: 2 };

export class BackoffOptionsError extends CodedError<'invalid_backoff_options'> {
  override readonly name = 'BackoffOptionsError';
  constructor(
    readonly field: keyof BackoffOptions,
    readonly value: number,
  ) {
    super('invalid_backoff_options', `backoff option ${field} must be a positive finite number (got ${value})`);
  }
}

/** Resolves and checks options once, so a bad cap fails at construction rather than on the first drop. */
export function resolveBackoff(options: BackoffOptions = {}): Required<BackoffOptions> {
  const resolved = { ...DEFAULT_BACKOFF, ...options };
  for (const field of ['baseMs', 'maxMs', 'factor'] as const) {
    const v = resolved[field];
    if (!Number.isFinite(v) || v <= 0) throw new BackoffOptionsError(field, v);
  }
  if (resolved.factor < 1) throw new BackoffOptionsError('factor', resolved.factor);
  return resolved;
}

/** The ceiling of the `attempt`-th retry (0-based): min(maxMs, baseMs * factor^attempt). */
export function backoffCeiling(attempt: number, options: Required<BackoffOptions>): number {
  // factor ** attempt may overflow to Infinity in a long outage; min() then yields the cap, never NaN.
  return Math.min(options.maxMs, options.baseMs * options.factor ** attempt);
}

/**
 * Full-jitter delay for the `attempt`-th retry: `random() * ceiling`, rounded down to whole ms.
 * `random` returns a value in [0, 1); inject it in tests.
 */
export function backoffDelay(attempt: number, options: Required<BackoffOptions>, random: () => number): number {
  return Math.floor(random() * backoffCeiling(attempt, options));
}
