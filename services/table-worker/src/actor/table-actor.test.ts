import { createLogger } from '@felt/platform';
import { stateHash, type TableState } from '@felt/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  CheckpointStore,
  EventPublisher,
  Publication,
  TableCheckpoint,
  TableSeed,
  TableSeedSource,
} from '../ports.js';
import { TableDirectory } from './table-directory.js';
import { TableError } from './table-error.js';

class MemorySeeds implements TableSeedSource {
  rooms = new Map<string, TableSeed>();
  loads = 0;
  load(id: string): Promise<TableSeed | null> {
    this.loads++;
    return Promise.resolve(this.rooms.get(id) ?? null);
  }
}

class MemoryCheckpoints implements CheckpointStore {
  saved = new Map<string, TableCheckpoint>();
  log: number[] = [];
  load(id: string) {
    return Promise.resolve(this.saved.get(id) ?? null);
  }
  save(c: TableCheckpoint) {
    this.saved.set(c.tableId, JSON.parse(JSON.stringify(c)) as TableCheckpoint);
    this.log.push(c.tableSeq);
    return Promise.resolve();
  }
}

class MemoryPublisher implements EventPublisher {
  batches: { tableId: string; tableSeq: number; publications: readonly Publication[] }[] = [];
  constructor(private readonly checkpoints: MemoryCheckpoints) {}
  publish(tableId: string, tableSeq: number, publications: readonly Publication[]) {
    // Invariant: nothing is published before its checkpoint.
    expect(this.checkpoints.saved.get(tableId)?.tableSeq).toBe(tableSeq);
    this.batches.push({ tableId, tableSeq, publications });
    return Promise.resolve();
  }
}

const T = 'table-1';

describe('table actor', () => {
  let seeds: MemorySeeds;
  let checkpoints: MemoryCheckpoints;
  let publisher: MemoryPublisher;
  let directory: TableDirectory;
  let now = 1_000;

  beforeEach(() => {
    seeds = new MemorySeeds();
    checkpoints = new MemoryCheckpoints();
    publisher = new MemoryPublisher(checkpoints);
    seeds.rooms.set(T, {
      roomId: T,
      status: 'open',
      seatCount: 4,
      members: [
        { userId: 'ann', name: 'Ann', seat: 1, stack: 500 },
        { userId: 'bob', name: 'Bob é', seat: 3, stack: 0 },
      ],
    });
    directory = new TableDirectory({
      seeds,
      checkpoints,
      publisher,
      clock: { now: () => now },
      logger: createLogger('test', { level: 'silent' }),
      idleMs: 60_000,
    });
  });

  it('creates the actor lazily and once under concurrent first attaches', async () => {
    const [a, b] = await Promise.all([directory.get(T), directory.get(T)]);
    expect(a).toBe(b);
    expect(directory.size).toBe(1);
    await expect(directory.get('nope')).rejects.toMatchObject({ code: 'table_not_found' });
  });

  it('attach marks the seat active, replies with the attacher’s snapshot and publishes per viewer', async () => {
    const actor = await directory.get(T);
    const out = await actor.submit({ kind: 'attach', connectionId: 'c1', streamId: 's1', userId: 'ann' });
    expect(out.tableSeq).toBe(1);
    const snap = out.replies[0]!.message as TableState;
    expect(out.replies[0]!.connectionId).toBe('c1');
    expect(snap.seats.map((s) => s.status)).toEqual(['active', 'empty', 'disconnected', 'empty']);
    expect(snap.seats[0]).toMatchObject({ seat: 1, user_id: 'ann', name: 'Ann', stack: 500 });
    const { state_hash, ...body } = snap;
    expect(state_hash).toBe(stateHash(body));

    const batch = publisher.batches.at(-1)!;
    expect(batch.tableSeq).toBe(1);
    expect(batch.publications.map((p) => p.audience)).toEqual([
      { kind: 'user', userId: 'ann' },
      { kind: 'table', except: ['ann'] },
    ]);
  });

  it('refuses a non-member after rereading the room, and changes nothing', async () => {
    const actor = await directory.get(T);
    const loadsBefore = seeds.loads;
    const seqBefore = actor.tableSeq;
    await expect(
      actor.submit({ kind: 'attach', connectionId: 'x', streamId: 's1', userId: 'mallory' }),
    ).rejects.toMatchObject({ code: 'not_member' });
    expect(seeds.loads).toBe(loadsBefore + 1);
    expect(actor.tableSeq).toBe(seqBefore);
    expect(actor.connectionCount).toBe(0);
    expect(publisher.batches).toHaveLength(0);
  });

  it('admits a member whose join the worker had not heard of yet', async () => {
    const actor = await directory.get(T);
    const room = seeds.rooms.get(T)!;
    seeds.rooms.set(T, { ...room, members: [...room.members, { userId: 'cy', name: 'Cy', seat: 2, stack: 0 }] });
    const out = await actor.submit({ kind: 'attach', connectionId: 'c3', streamId: 's1', userId: 'cy' });
    expect((out.replies[0]!.message as TableState).seats[1]).toMatchObject({ user_id: 'cy', status: 'active' });
  });

  it('table_seq only grows: every accepted command takes the next one, refusals take none', async () => {
    const actor = await directory.get(T);
    const seqs: number[] = [];
    const ops = [
      actor.submit({ kind: 'attach', connectionId: 'c1', streamId: 's1', userId: 'ann' }),
      actor.submit({ kind: 'attach', connectionId: 'c2', streamId: 's2', userId: 'bob' }),
      actor.submit({ kind: 'resync', connectionId: 'c2', userId: 'bob' }),
      actor.submit({ kind: 'resync', connectionId: 'c2', userId: 'ann' }).catch((e: unknown) => e),
      actor.submit({ kind: 'detach', connectionId: 'c1', userId: 'ann' }),
    ];
    for (const r of await Promise.all(ops))
      if (!(r instanceof TableError)) seqs.push((r as { tableSeq: number }).tableSeq);
    expect(seqs).toEqual([1, 2, 3, 4]);
    expect(checkpoints.log).toEqual([1, 2, 3, 4]);
  });

  it('a gateway stream ending disconnects exactly its connections', async () => {
    const actor = await directory.get(T);
    await actor.submit({ kind: 'attach', connectionId: 'c1', streamId: 'gw-a', userId: 'ann' });
    await actor.submit({ kind: 'attach', connectionId: 'c2', streamId: 'gw-b', userId: 'bob' });
    await actor.submit({ kind: 'stream_closed', streamId: 'gw-a' });
    const last = publisher.batches.at(-1)!;
    const spectator = last.publications.find((p) => p.audience.kind === 'table')!.message as TableState;
    expect(spectator.seats.map((s) => s.status)).toEqual(['disconnected', 'empty', 'active', 'empty']);
    expect(last.publications.map((p) => p.audience)).toEqual([
      { kind: 'user', userId: 'bob' },
      { kind: 'table', except: ['bob'] },
    ]);
  });

  it('a second connection of a seated user changes nothing visible: reply only, no fan-out', async () => {
    const actor = await directory.get(T);
    await actor.submit({ kind: 'attach', connectionId: 'c1', streamId: 's', userId: 'ann' });
    const published = publisher.batches.length;
    const out = await actor.submit({ kind: 'attach', connectionId: 'c1b', streamId: 's', userId: 'ann' });
    expect(out.replies).toHaveLength(1);
    expect(publisher.batches).toHaveLength(published);
  });

  it('continues table_seq from the checkpoint when the table is recreated (another owner)', async () => {
    const actor = await directory.get(T);
    await actor.submit({ kind: 'attach', connectionId: 'c1', streamId: 's', userId: 'ann' });
    await actor.submit({ kind: 'detach', connectionId: 'c1', userId: 'ann' });
    await directory.evict(T);
    const again = await directory.get(T);
    expect(again).not.toBe(actor);
    const out = await again.submit({ kind: 'attach', connectionId: 'c9', streamId: 's', userId: 'bob' });
    expect(out.tableSeq).toBe(3);
    expect(JSON.parse(JSON.stringify(again.snapshot()))).toEqual(again.snapshot());
  });

  it('closing the room publishes table_closed and refuses later attaches', async () => {
    const actor = await directory.get(T);
    await actor.submit({ kind: 'attach', connectionId: 'c1', streamId: 's', userId: 'ann' });
    seeds.rooms.set(T, { ...seeds.rooms.get(T)!, status: 'closed' });
    await actor.submit({ kind: 'refresh' });
    expect(publisher.batches.at(-1)!.publications[0]!.message).toMatchObject({ type: 'table_closed', table_id: T });
    await expect(
      actor.submit({ kind: 'attach', connectionId: 'c2', streamId: 's', userId: 'bob' }),
    ).rejects.toMatchObject({ code: 'table_closed' });
  });

  it('sweeps tables idle past idleMs', async () => {
    const actor = await directory.get(T);
    await actor.submit({ kind: 'attach', connectionId: 'c1', streamId: 's', userId: 'ann' });
    now += 120_000;
    expect(await directory.sweep()).toEqual([]);
    await actor.submit({ kind: 'detach', connectionId: 'c1', userId: 'ann' });
    now += 59_000;
    expect(await directory.sweep()).toEqual([]);
    now += 2_000;
    expect(await directory.sweep()).toEqual([T]);
    expect(directory.size).toBe(0);
  });
});

describe('table directory with a corrupt checkpoint', () => {
  it('keeps table_seq growing by continuing from the clock', async () => {
    const seeds = new MemorySeeds();
    seeds.rooms.set(T, { roomId: T, status: 'open', seatCount: 2, members: [] });
    const checkpoints = new MemoryCheckpoints();
    const { CheckpointCorruptError } = await import('../ports.js');
    checkpoints.load = () => Promise.reject(new CheckpointCorruptError(T));
    const directory = new TableDirectory({
      seeds,
      checkpoints,
      publisher: new MemoryPublisher(checkpoints),
      clock: { now: () => 1_764_400_000_000 },
      logger: createLogger('test', { level: 'silent' }),
      idleMs: 1,
    });
    const actor = await directory.get(T);
    expect(actor.tableSeq).toBe(1_764_400_000_000);
  });
});
