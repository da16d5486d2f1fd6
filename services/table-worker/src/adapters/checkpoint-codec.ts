import { z } from 'zod';
import { CheckpointCorruptError, type CheckpointFence, type TableCheckpoint } from '../ports.js';
import type { BufferedEvent } from '../table/event-buffer.js';

// The stored form of a checkpoint and of its buffered events, shared by every CheckpointStore, so
// that the memory store reads back exactly what the Redis store would.

const checkpointSchema = z.object({
  version: z.literal(1),
  tableId: z.string(),
  tableSeq: z.number().int().nonnegative(),
  epoch: z.number().int().nonnegative().optional(),
  state: z.unknown(),
});

const bufferedSchema = z.object({
  tableSeq: z.number().int().nonnegative(),
  audience: z.union([z.object({ kind: z.literal('all') }), z.object({ kind: z.literal('user'), userId: z.string() })]),
  message: z.looseObject({ type: z.string() }),
});

/**
 * The checkpoint's text: `{"version":1,"tableId","tableSeq","epoch"?,"state","money"?}`, built
 * around the state the actor already serialized (docs/dev/contracts.md, `P checkpoint:<tableId>`).
 */
export function encodeCheckpoint(
  tableId: string,
  tableSeq: number,
  stateJson: string,
  { moneyJson, fence }: { readonly moneyJson?: string | undefined; readonly fence?: CheckpointFence | undefined } = {},
): string {
  const epochField = fence ? `"epoch":${fence.epoch},` : '';
  const moneyField = moneyJson !== undefined ? `,"money":${moneyJson}` : '';
  return `{"version":1,"tableId":${JSON.stringify(tableId)},"tableSeq":${tableSeq},${epochField}"state":${stateJson}${moneyField}}`;
}

/**
 * The first table_seq a save buffers: its first event's, or the one after the state's when it has
 * none. A store whose mark is already there holds a save its writer counted as failed, and drops
 * the buffered events from there on before it adds these (CheckpointStore.save).
 */
export function firstBuffered(tableSeq: number, events: readonly BufferedEvent[]): number {
  return events[0]?.tableSeq ?? tableSeq + 1;
}

export function encodeBufferedEvent(event: BufferedEvent): string {
  return JSON.stringify(event);
}

/** Reads a stored checkpoint and its events; throws CheckpointCorruptError when they do not parse. */
export function decodeCheckpoint(
  tableId: string,
  raw: string,
  rawEvents: readonly string[],
): { checkpoint: TableCheckpoint; events: BufferedEvent[] } {
  let parsed: z.infer<typeof checkpointSchema>;
  let events: BufferedEvent[];
  try {
    parsed = checkpointSchema.parse(JSON.parse(raw));
    events = rawEvents.map((e) => bufferedSchema.parse(JSON.parse(e)) as unknown as BufferedEvent);
  } catch (err) {
    throw new CheckpointCorruptError(tableId, { cause: err });
  }
  if (parsed.tableId !== tableId) throw new CheckpointCorruptError(tableId);
  return {
    checkpoint: { version: parsed.version, tableId: parsed.tableId, tableSeq: parsed.tableSeq, state: parsed.state },
    events,
  };
}
