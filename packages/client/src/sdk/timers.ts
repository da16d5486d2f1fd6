/** An opaque timer handle. */
export type TimerHandle = unknown;

/**
 * The clock and timers the SDK uses, injected so that reconnect and backoff tests run on a fake
 * clock instead of waiting.
 */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** Wall-clock ms, used to decide when a connection has been stable and for latency stats. */
  now(): number;
}

export const systemTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]),
  now: () => Date.now(),
};
