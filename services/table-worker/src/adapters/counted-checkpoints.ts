import type { Counter } from 'prom-client';
import { StaleEpochError, type CheckpointStore } from '../ports.js';

/** What a worker counts of its checkpoint saves (felt_worker_checkpoints_total, felt_worker_checkpoint_bytes_total). */
export interface CheckpointCounters {
  /** Saves by result: `saved`, `stale_epoch` (refused: the table is no longer this writer's), `failed`. */
  readonly saves: Counter<'result'>;
  /** The state text of each save that stood, in bytes (UTF-8, as Redis stores it). */
  readonly bytes: Counter;
}

/**
 * The store, counting each save: how many commits a hand takes, and what they write, without a Redis
 * `MONITOR` (docs/architecture.md, "The eighth round"). Loads and marks pass through untouched.
 */
export function countedCheckpoints(store: CheckpointStore, counters: CheckpointCounters): CheckpointStore {
  const mark = store.mark?.bind(store);
  // Every commit passes here: the label set is looked up once, not per save.
  const saved = counters.saves.labels({ result: 'saved' });
  return {
    load: (tableId) => store.load(tableId),
    ...(mark !== undefined ? { mark } : {}),
    async save(tableId, tableSeq, stateJson, events, options) {
      try {
        await store.save(tableId, tableSeq, stateJson, events, options);
      } catch (err) {
        counters.saves.inc({ result: err instanceof StaleEpochError ? 'stale_epoch' : 'failed' });
        throw err;
      }
      saved.inc();
      counters.bytes.inc(Buffer.byteLength(stateJson));
    },
  };
}
