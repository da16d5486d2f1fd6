import {
  StaleEpochError,
  type CheckpointMark,
  type CheckpointSaveOptions,
  type CheckpointStore,
  type TableCheckpoint,
} from '../ports.js';
import { EVENT_BUFFER_SIZE, type BufferedEvent } from '../table/event-buffer.js';
import { decodeCheckpoint, encodeBufferedEvent, encodeCheckpoint, firstBuffered } from './checkpoint-codec.js';
import { MemoryOwnershipStore } from './memory-ownership.js';

export interface MemoryCheckpointStoreOptions {
  /** Where the fencing epochs are (shared with MemoryLeases); by default a store of its own. */
  readonly ownership?: MemoryOwnershipStore;
  /** Events kept per table. */
  readonly bufferSize?: number;
}

/**
 * Checkpoints in memory, with RedisCheckpointStore's behaviour: the same stored text (read back
 * through the same parser, so a corrupt one is CheckpointCorruptError), the bounded event buffer,
 * the mark written with every checkpoint, and the write fenced by the table's epoch. No TTL.
 */
export class MemoryCheckpointStore implements CheckpointStore {
  private readonly texts = new Map<string, string>();
  private readonly buffers = new Map<string, string[]>();
  private readonly marks = new Map<string, CheckpointMark>();
  private readonly ownership: MemoryOwnershipStore;
  private readonly bufferSize: number;

  constructor(options: MemoryCheckpointStoreOptions = {}) {
    this.ownership = options.ownership ?? new MemoryOwnershipStore();
    this.bufferSize = options.bufferSize ?? EVENT_BUFFER_SIZE;
  }

  load(tableId: string): Promise<{ checkpoint: TableCheckpoint; events: BufferedEvent[] } | null> {
    const raw = this.texts.get(tableId);
    // A corrupt text rejects with CheckpointCorruptError (thrown inside the executor).
    return new Promise((resolve) =>
      resolve(raw === undefined ? null : decodeCheckpoint(tableId, raw, this.buffers.get(tableId) ?? [])),
    );
  }

  mark(tableId: string): Promise<CheckpointMark | null> {
    const mark = this.marks.get(tableId);
    return Promise.resolve(mark ? { ...mark } : null);
  }

  save(
    tableId: string,
    tableSeq: number,
    stateJson: string,
    events: readonly BufferedEvent[],
    { moneyJson, fence, mark }: CheckpointSaveOptions = {},
  ): Promise<void> {
    const current = this.ownership.epoch(tableId);
    if (fence && current !== fence.epoch) return Promise.reject(new StaleEpochError(tableId, fence.epoch, current));
    this.texts.set(tableId, encodeCheckpoint(tableId, tableSeq, stateJson, { moneyJson, fence }));
    // As the Redis store: a save written though its writer counted it failed is superseded.
    const from = firstBuffered(tableSeq, events);
    if ((this.marks.get(tableId)?.tableSeq ?? -1) >= from) {
      const kept = [...(this.buffers.get(tableId) ?? [])];
      while (kept.length > 0 && (JSON.parse(kept[kept.length - 1]!) as BufferedEvent).tableSeq >= from) kept.pop();
      this.buffers.set(tableId, kept);
    }
    if (events.length > 0) {
      const buffer = [...(this.buffers.get(tableId) ?? []), ...events.map(encodeBufferedEvent)];
      this.buffers.set(tableId, buffer.slice(-this.bufferSize));
    }
    this.marks.set(tableId, {
      tableSeq,
      epoch: fence ? fence.epoch : 0,
      handId: mark?.handId ? mark.handId : null,
      ...(mark !== undefined && Number.isSafeInteger(mark.handNo) && mark.handNo >= 0 ? { handNo: mark.handNo } : {}),
    });
    return Promise.resolve();
  }

  /** The stored checkpoint text, as `P checkpoint:<tableId>` would hold it (money section included). */
  text(tableId: string): string | undefined {
    return this.texts.get(tableId);
  }

  /** Drops the checkpoint itself, keeping its events and mark (a Redis that lost that one key). */
  dropCheckpoint(tableId: string): void {
    this.texts.delete(tableId);
  }

  /** Overwrites the stored checkpoint text (tests: a corrupt checkpoint). */
  overwrite(tableId: string, text: string): void {
    this.texts.set(tableId, text);
  }
}
