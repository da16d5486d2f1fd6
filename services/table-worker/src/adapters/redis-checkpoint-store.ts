import { NO_REPLICA_ACKS, redisKeys, replicated, type Redis, type RedisKeys, type ReplicaAcks } from '@felt/platform';
import {
  StaleEpochError,
  type CheckpointSaveOptions,
  type CheckpointMark,
  type CheckpointStore,
  type TableCheckpoint,
} from '../ports.js';
import { EVENT_BUFFER_SIZE, type BufferedEvent } from '../table/event-buffer.js';
import { decodeCheckpoint, encodeBufferedEvent, encodeCheckpoint, firstBuffered } from './checkpoint-codec.js';

/** Idle tables' checkpoints outlive their actors by this long, so table_seq survives a quiet week. */
const CHECKPOINT_TTL_SECONDS = 7 * 24 * 3600;

/**
 * One atomic write: the checkpoint, the event buffer and the mark, and only while the table's epoch
 * is the writer's (ARGV[1] empty: an unfenced write, for single-worker tools and tests).
 * KEYS: epoch, checkpoint, events, mark. ARGV: epoch, text, ttl seconds, buffer size, table_seq,
 * hand id ('' for none), last completed hand number ('' when unknown), the first table_seq this save
 * buffers (its first event's, or table_seq + 1 with none), then the events.
 * Returns {1, epoch} when written, {0, current epoch} when refused.
 *
 * A save the writer counted as failed (its reply lost, its replicas late) may still have been written:
 * the writer rolled back and uses those table_seqs again. The mark tells: when it already names a
 * table_seq at or past this save's first, the buffered events from that one on are dropped before
 * this save's are added. A normal save reads the mark and drops nothing.
 */
const SAVE_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if ARGV[1] ~= '' and current ~= tonumber(ARGV[1]) then
  return {0, current}
end
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
local from = tonumber(ARGV[8])
if tonumber(redis.call('HGET', KEYS[4], 'tableSeq') or '-1') >= from then
  while true do
    local last = redis.call('LINDEX', KEYS[3], -1)
    if not last then break end
    local ok, event = pcall(cjson.decode, last)
    if not ok or type(event) ~= 'table' or tonumber(event.tableSeq) == nil or tonumber(event.tableSeq) < from then break end
    redis.call('RPOP', KEYS[3])
  end
end
if #ARGV > 8 then
  for i = 9, #ARGV do
    redis.call('RPUSH', KEYS[3], ARGV[i])
  end
  redis.call('LTRIM', KEYS[3], -tonumber(ARGV[4]), -1)
end
redis.call('EXPIRE', KEYS[3], ARGV[3])
redis.call('HSET', KEYS[4], 'tableSeq', ARGV[5], 'epoch', ARGV[1] == '' and '0' or ARGV[1], 'handId', ARGV[6], 'handNo', ARGV[7])
redis.call('EXPIRE', KEYS[4], ARGV[3])
return {1, current}
`;

const SAVE_COMMAND = 'feltCheckpointSave';

/** The connection, with SAVE_SCRIPT defined on it as a command. */
type CheckpointRedis = Redis & {
  [SAVE_COMMAND](...keysThenArgs: string[]): Promise<[number, number]>;
};

/**
 * `P checkpoint:<tableId>` (the state, JSON), `P events:<tableId>` (the bounded event buffer, a
 * list of JSON events, oldest first) and `P checkpoint-mark:<tableId>` (table_seq, epoch, hand in
 * progress), written together by one Lua script that first compares the table's lease epoch
 * (`P epoch:<tableId>`) with the writer's: a stale owner's write changes nothing.
 */
export class RedisCheckpointStore implements CheckpointStore {
  private readonly keys: RedisKeys;
  private readonly redis: CheckpointRedis;

  constructor(
    redis: Redis,
    prefix: string,
    private readonly bufferSize = EVENT_BUFFER_SIZE,
    /**
     * Replicas that must have each save before it counts (`WAIT`): with Redis behind Sentinel, a
     * save only its old master held is lost in a failover, so the command it carried must not be
     * answered. Default none (one Redis, or losses accepted as a data-loss fault).
     */
    private readonly replicas: ReplicaAcks = NO_REPLICA_ACKS,
  ) {
    this.keys = redisKeys(prefix);
    // EVALSHA (ioredis falls back to EVAL once after a NOSCRIPT): the script's 700 bytes are not sent,
    // nor hashed by Redis, with every command's checkpoint.
    redis.defineCommand(SAVE_COMMAND, { numberOfKeys: 4, lua: SAVE_SCRIPT });
    this.redis = redis as CheckpointRedis;
  }

  async load(tableId: string): Promise<{ checkpoint: TableCheckpoint; events: BufferedEvent[] } | null> {
    const [raw, list] = await Promise.all([
      this.redis.get(this.keys.tableCheckpoint(tableId)),
      this.redis.lrange(this.keys.tableEvents(tableId), 0, -1),
    ]);
    if (raw === null) return null;
    return decodeCheckpoint(tableId, raw, list);
  }

  async mark(tableId: string): Promise<CheckpointMark | null> {
    const h = await this.redis.hgetall(this.keys.checkpointMark(tableId));
    if (h.tableSeq === undefined) return null;
    const tableSeq = Number(h.tableSeq);
    const epoch = Number(h.epoch ?? 0);
    if (!Number.isSafeInteger(tableSeq) || tableSeq < 0) return null;
    const handNo = h.handNo ? Number(h.handNo) : NaN;
    return {
      tableSeq,
      epoch: Number.isSafeInteger(epoch) ? epoch : 0,
      handId: h.handId ? h.handId : null,
      ...(Number.isSafeInteger(handNo) && handNo >= 0 ? { handNo } : {}),
    };
  }

  async save(
    tableId: string,
    tableSeq: number,
    stateJson: string,
    events: readonly BufferedEvent[],
    { moneyJson, fence, mark }: CheckpointSaveOptions = {},
  ): Promise<void> {
    // The envelope around the state the actor serialized once.
    const text = encodeCheckpoint(tableId, tableSeq, stateJson, { moneyJson, fence });
    const result = await this.redis[SAVE_COMMAND](
      this.keys.epoch(tableId),
      this.keys.tableCheckpoint(tableId),
      this.keys.tableEvents(tableId),
      this.keys.checkpointMark(tableId),
      fence ? String(fence.epoch) : '',
      text,
      String(CHECKPOINT_TTL_SECONDS),
      String(this.bufferSize),
      String(tableSeq),
      mark?.handId ?? '',
      mark !== undefined ? String(mark.handNo) : '',
      String(firstBuffered(tableSeq, events)),
      ...events.map(encodeBufferedEvent),
    );
    if (result[0] !== 1) throw new StaleEpochError(tableId, fence?.epoch ?? 0, Number(result[1]));
    await replicated(this.redis, this.replicas, this.keys.tableCheckpoint(tableId));
  }
}
