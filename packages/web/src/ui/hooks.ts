import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Store } from '../state/store.js';

export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** The current time from `now`, re-read every `intervalMs` while mounted (for countdowns). */
export function useNow(now: () => number, intervalMs: number, active = true): number {
  const [t, setT] = useState(now);
  useEffect(() => {
    if (!active) return;
    setT(now());
    const id = setInterval(() => setT(now()), intervalMs);
    return () => clearInterval(id);
  }, [now, intervalMs, active]);
  return t;
}

const REDUCED = '(prefers-reduced-motion: reduce)';

/** The player's `prefers-reduced-motion` setting, kept current. */
export function useReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => typeof matchMedia === 'function' && matchMedia(REDUCED).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mq = matchMedia(REDUCED);
    const on = (): void => setReduced(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return reduced;
}
