/** Polls `check` until it returns a value other than undefined/false, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string | (() => string),
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}${lastError instanceof Error ? `: ${lastError.message}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * A deliberate delay that is part of a scenario, never a wait for something to happen: a client's
 * back-off before it retries, or a fault injected a moment into an operation. Tests wait for events
 * with {@link waitFor} (or a client's `until`/`barrier`); the lint rule `felt/no-test-sleep` allows raw
 * timers only here.
 */
export function pause(ms: number, _why: string): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
