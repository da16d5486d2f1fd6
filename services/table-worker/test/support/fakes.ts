import { createHash } from 'node:crypto';
import { createLogger } from '@felt/platform';
import { parseRoomConfig, type RoomConfigInput, type TableHeartbeat, type TableMessage } from '@felt/protocol';
import { TableActor, type TableActorDeps } from '../../src/actor/table-actor.js';
import { MemoryCheckpointStore } from '../../src/adapters/memory-checkpoint-store.js';
import { MemoryHandSink } from '../../src/adapters/memory-hand-sink.js';
import { MemoryEventPublisher } from '../../src/adapters/memory-publisher.js';
import type {
  CheckpointSaveOptions,
  Clock,
  Publication,
  RandomSource,
  Scheduler,
  TableCheckpoint,
} from '../../src/ports.js';
import type { BotSeatRequest, MoneySeed, MoneySeedSource } from '../../src/money/ports.js';
import type { BufferedEvent } from '../../src/table/event-buffer.js';
import { DEFAULT_TIMING_OVERRIDES, type TimingOverrides } from '../../src/table/timing.js';

/** A clock and scheduler the test moves by hand. */
export class ManualTime implements Clock, Scheduler {
  private t: number;
  private timers: { at: number; fn: () => void; live: boolean }[] = [];
  private waiters: (() => void)[] = [];

  constructor(start = 1_764_400_000_000) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  schedule(at: number, fn: () => void): () => void {
    const timer = { at, fn, live: true };
    this.timers.push(timer);
    for (const resolve of this.waiters.splice(0)) resolve();
    return () => {
      timer.live = false;
    };
  }

  /** The earliest armed timer, if any. */
  nextAt(): number | undefined {
    const live = this.timers.filter((t) => t.live);
    return live.length > 0 ? Math.min(...live.map((t) => t.at)) : undefined;
  }

  /**
   * Resolves once a timer is armed (at once if one is): the code under test is waiting on this
   * clock, so moving it now moves that code on.
   */
  armed(): Promise<void> {
    if (this.nextAt() !== undefined) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.t = Math.max(this.t, due.at);
      due.live = false;
      due.fn();
    }
    this.t = end;
    this.timers = this.timers.filter((t) => t.live);
  }
}

/** Deterministic "randomness" for ids, seeds and tokens. */
export class CountingRandom implements RandomSource {
  private n = 0;
  constructor(private readonly label = 'r') {}
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let block = Buffer.alloc(0);
    while (block.length < n) {
      block = Buffer.concat([block, createHash('sha256').update(`${this.label}:${this.n++}`).digest()]);
    }
    out.set(block.subarray(0, n));
    return out;
  }
  uuid(): string {
    const h = Buffer.from(this.bytes(16)).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

export class MemorySeeds implements MoneySeedSource {
  readonly rooms = new Map<string, MoneySeed>();
  load(id: string): Promise<MoneySeed | null> {
    return Promise.resolve(structuredClone(this.rooms.get(id) ?? null));
  }
}

/**
 * Seeds with funded bots, the way @felt/db seatBot does it: the bot becomes a member of the room
 * rows (name `bot-<id>`) with a membership and its buy-in as its stack.
 */
export class FundingSeeds extends MemorySeeds {
  readonly funded: BotSeatRequest[] = [];
  refuse = false;
  seatBot(req: BotSeatRequest): Promise<{ membershipId: string }> {
    if (this.refuse) return Promise.reject(new Error('seat taken'));
    const room = this.rooms.get(req.roomId)!;
    if (room.members.some((m) => m.seat === req.seat)) return Promise.reject(new Error('seat taken'));
    this.funded.push(req);
    const membershipId = `bbbbbbbb-0000-4000-8000-${String(this.funded.length).padStart(12, '0')}`;
    this.rooms.set(req.roomId, {
      ...room,
      members: [
        ...room.members,
        { userId: req.botId, name: `bot-${req.botId}`, seat: req.seat, stack: req.buyIn, membershipId, bot: true },
      ],
    });
    return Promise.resolve({ membershipId });
  }
}

/**
 * The memory checkpoint store (fenced, with marks, as the Redis one), plus what tests look at: the
 * last checkpoint and `money` section saved per table, how many saves succeeded, and a switch that
 * makes the store fail as a Redis that is down does.
 */
export class MemoryCheckpoints extends MemoryCheckpointStore {
  readonly saved = new Map<string, TableCheckpoint>();
  /** The last `money` section written per table (the checkpoint's top-level section). */
  readonly money = new Map<string, unknown>();
  saves = 0;
  fail = false;
  /** The next save is written, then fails: a reply lost, or replicas that did not confirm it in time. */
  failAfterWrite = false;
  /** Every state and event batch written, as written (privacy sweeps read them all). */
  readonly written: string[] = [];

  override async save(
    tableId: string,
    tableSeq: number,
    stateJson: string,
    events: readonly BufferedEvent[],
    options: CheckpointSaveOptions = {},
  ): Promise<void> {
    if (this.fail) throw new Error('checkpoint store down');
    await super.save(tableId, tableSeq, stateJson, events, options);
    if (this.failAfterWrite) {
      this.failAfterWrite = false;
      throw new Error('checkpoint written but not confirmed');
    }
    this.saves++;
    this.written.push(stateJson, JSON.stringify(events));
    const { moneyJson } = options;
    if (moneyJson !== undefined) this.money.set(tableId, JSON.parse(moneyJson) as unknown);
    this.saved.set(tableId, { version: 1, tableId, tableSeq, state: JSON.parse(stateJson) as unknown });
  }
}

const isTableMessage = (m: Publication['message']): m is TableMessage => m.type !== 'table_heartbeat';

/** The memory publisher, read the way the gateway delivers it: per user stream, and the spectator stream. */
export class MemoryPublisher extends MemoryEventPublisher {
  /** While set, a publish delivers nothing and rejects, as a Redis that dropped the batch. */
  fail = false;
  override publish(tableId: string, publications: readonly Publication[]): Promise<void> {
    if (this.fail) return Promise.reject(new Error('publish lost'));
    return super.publish(tableId, publications);
  }
  /** Messages user `userId` received on their own channel (heartbeats apart: see `heartbeats`). */
  toUser(userId: string): TableMessage[] {
    return this.stream(userId).filter(isTableMessage);
  }
  /** Messages a spectator received (the table channel), heartbeats apart. */
  toSpectators(): TableMessage[] {
    return this.stream(null).filter(isTableMessage);
  }
  /** The table_heartbeats one stream got: a user's (`userId`) or the spectators' (null). */
  heartbeats(userId: string | null): TableHeartbeat[] {
    return this.stream(userId).filter((m): m is TableHeartbeat => m.type === 'table_heartbeat');
  }
  private stream(userId: string | null): Publication['message'][] {
    return this.all
      .filter((p) =>
        userId === null ? p.audience.kind === 'table' : p.audience.kind === 'user' && p.audience.userId === userId,
      )
      .map((p) => p.message);
  }
}

/** The memory hands queue (services/table-worker/src/adapters/memory-hand-sink.ts). */
export class MemoryHands extends MemoryHandSink {}

export const TABLE = '6f1d2c3b-4a5e-4f60-8a7b-9c8d7e6f5a4b';

export function uid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

export interface Harness {
  readonly time: ManualTime;
  readonly seeds: MemorySeeds;
  readonly checkpoints: MemoryCheckpoints;
  readonly publisher: MemoryPublisher;
  readonly hands: MemoryHands;
  readonly deps: TableActorDeps;
}

export const FAST: TimingOverrides = {
  ...DEFAULT_TIMING_OVERRIDES,
  actionMs: 10_000,
  timeBankMs: 5_000,
  warningMs: 2_000,
  seedWindowMs: 1_500,
  handPauseMs: 1_000,
  botThinkMs: 200,
  freezeAfterMs: 10_000,
};

export function harness(timing: TimingOverrides = FAST, seeds: MemorySeeds = new MemorySeeds()): Harness {
  const time = new ManualTime();
  const checkpoints = new MemoryCheckpoints();
  const publisher = new MemoryPublisher();
  const hands = new MemoryHands();
  return {
    time,
    seeds,
    checkpoints,
    publisher,
    hands,
    deps: {
      seeds,
      checkpoints,
      publisher,
      hands,
      clock: time,
      scheduler: time,
      random: new CountingRandom(),
      timing,
      bot: { iterations: 40 },
      botSeed: 'test',
      logger: createLogger('table-worker', { level: 'silent' }),
    },
  };
}

export function room(
  members: MoneySeed['members'][number][],
  config: RoomConfigInput = {},
  extra: Partial<MoneySeed> = {},
): MoneySeed {
  const parsed = parseRoomConfig(config);
  return {
    roomId: TABLE,
    status: 'open',
    seatCount: parsed.seats,
    config: parsed,
    hostId: members[0]?.userId ?? uid(1),
    members,
    ...extra,
  };
}

/** Lets queued mailbox work (and the promises it awaits) run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

export function createActor(h: Harness, seed: MoneySeed): TableActor {
  h.seeds.rooms.set(seed.roomId, seed);
  return TableActor.create(seed.roomId, seed, 0, h.deps);
}

/** Moves time forward in small steps, letting the actor work between them (timers re-arm async). */
export async function pass(h: Harness, ms: number, step = 250): Promise<void> {
  for (let done = 0; done < ms; done += step) {
    h.time.advance(Math.min(step, ms - done));
    await flush();
  }
}

/** The table again, as the next owner builds it from the checkpoint the harness saved last. */
export async function restoreFromCheckpoint(h: Harness): Promise<TableActor> {
  const { checkpoint, events } = (await h.checkpoints.load(TABLE))!;
  return TableActor.restore(
    checkpoint.state as Parameters<typeof TableActor.restore>[0],
    events,
    h.seeds.rooms.get(TABLE)!,
    h.deps,
  );
}
