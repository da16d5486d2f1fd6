import { redisKeys, type Redis, type RedisKeys } from '@felt/platform';
import { z } from 'zod';
import { CheckpointCorruptError, type CheckpointStore, type TableCheckpoint } from '../ports.js';

const checkpointSchema = z.object({
  version: z.literal(1),
  tableId: z.string(),
  tableSeq: z.number().int().nonnegative(),
  state: z.unknown(),
});

/** Idle tables' checkpoints outlive their actors by this long, so table_seq survives a quiet week. */
const CHECKPOINT_TTL_SECONDS = 7 * 24 * 3600;

export class RedisCheckpointStore implements CheckpointStore {
  private readonly keys: RedisKeys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
  }

  async load(tableId: string): Promise<TableCheckpoint | null> {
    const raw = await this.redis.get(this.keys.tableCheckpoint(tableId));
    if (raw === null) return null;
    let parsed: z.infer<typeof checkpointSchema>;
    try {
      parsed = checkpointSchema.parse(JSON.parse(raw));
    } catch (err) {
      throw new CheckpointCorruptError(tableId, { cause: err });
    }
    if (parsed.tableId !== tableId) throw new CheckpointCorruptError(tableId);
    return { version: parsed.version, tableId: parsed.tableId, tableSeq: parsed.tableSeq, state: parsed.state };
  }

  async save(checkpoint: TableCheckpoint): Promise<void> {
    await this.redis.set(
      this.keys.tableCheckpoint(checkpoint.tableId),
      JSON.stringify(checkpoint),
      'EX',
      CHECKPOINT_TTL_SECONDS,
    );
  }
}
