/*
 * What a bench started and must stop (clusters, child processes, sockets), run even when the bench
 * fails or is interrupted: scripts/bench.ts runs the list after the benches and on SIGINT/SIGTERM.
 */

const cleanups = new Set<() => Promise<void>>();

/** Registers `fn` to run by {@link runCleanups}; returns the function that unregisters it. */
export function onCleanup(fn: () => Promise<void>): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** Runs every registered cleanup, newest first, each once; failures are reported, not thrown. */
export async function runCleanups(): Promise<void> {
  const all = [...cleanups].reverse();
  cleanups.clear();
  for (const fn of all) {
    try {
      await fn();
    } catch (err) {
      process.stderr.write(`bench cleanup failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}
