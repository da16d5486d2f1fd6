import { redisKeys, type Redis, type RedisKeys } from '@felt/platform';
import { z } from 'zod';
import { CheckpointCorruptError, type CheckpointStore, type TableCheckpoint } from '../ports.js';
import { EVENT_BUFFER_SIZE, type BufferedEvent } from '../table/event-buffer.js';

const checkpointSchema = z.object({
  version: z.literal(1),
  tableId: z.string(),
  tableSeq: z.number().int().nonnegative(),
  state: z.unknown(),
});

const bufferedSchema = z.object({
  tableSeq: z.number().int().nonnegative(),
  audience: z.union([z.object({ kind: z.literal('all') }), z.object({ kind: z.literal('user'), userId: z.string() })]),
  message: z.looseObject({ type: z.string() }),
});

/** Idle tables' checkpoints outlive their actors by this long, so table_seq survives a quiet week. */
const CHECKPOINT_TTL_SECONDS = 7 * 24 * 3600;

/**
 * `P checkpoint:<tableId>` (the state, JSON) and `P events:<tableId>` (the bounded event buffer, a
 * list of JSON events, oldest first), written together in one MULTI so that they never disagree.
 */
export class RedisCheckpointStore implements CheckpointStore {
  private readonly keys: RedisKeys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly bufferSize = EVENT_BUFFER_SIZE,
  ) {
    this.keys = redisKeys(prefix);
  }

  async load(tableId: string): Promise<{ checkpoint: TableCheckpoint; events: BufferedEvent[] } | null> {
    const [raw, list] = await Promise.all([
      this.redis.get(this.keys.tableCheckpoint(tableId)),
      this.redis.lrange(this.keys.tableEvents(tableId), 0, -1),
    ]);
    if (raw === null) return null;
    let parsed: z.infer<typeof checkpointSchema>;
    let events: BufferedEvent[];
    try {
      parsed = checkpointSchema.parse(JSON.parse(raw));
      events = list.map((e) => bufferedSchema.parse(JSON.parse(e)) as unknown as BufferedEvent);
    } catch (err) {
      throw new CheckpointCorruptError(tableId, { cause: err });
    }
    if (parsed.tableId !== tableId) throw new CheckpointCorruptError(tableId);
    return {
      checkpoint: { version: parsed.version, tableId: parsed.tableId, tableSeq: parsed.tableSeq, state: parsed.state },
      events,
    };
  }

  async save(tableId: string, tableSeq: number, stateJson: string, events: readonly BufferedEvent[]): Promise<void> {
    const key = this.keys.tableCheckpoint(tableId);
    const list = this.keys.tableEvents(tableId);
    // The envelope around the state the actor serialized once.
    const text = `{"version":1,"tableId":${JSON.stringify(tableId)},"tableSeq":${tableSeq},"state":${stateJson}}`;
    const multi = this.redis.multi().set(key, text, 'EX', CHECKPOINT_TTL_SECONDS);
    if (events.length > 0) {
      multi.rpush(list, ...events.map((e) => JSON.stringify(e))).ltrim(list, -this.bufferSize, -1);
    }
    multi.expire(list, CHECKPOINT_TTL_SECONDS);
    const results = (await multi.exec()) ?? [];
    const failed = results.find(([err]) => err);
    if (failed?.[0]) throw failed[0];
  }
}
