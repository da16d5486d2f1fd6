import { afterEach, describe, expect, it } from 'vitest';
import {
  CheckpointCorruptError,
  StaleEpochError,
  type CheckpointMark,
  type CheckpointStore,
  type TableCheckpoint,
} from '../../src/ports.js';
import type { BufferedEvent } from '../../src/table/event-buffer.js';

/** One CheckpointStore adapter, with the means to act on the store behind it as tests must. */
export interface CheckpointStoreUnderTest {
  readonly store: CheckpointStore & { mark(tableId: string): Promise<CheckpointMark | null> };
  /** A new owner takes the table (its lease, through the matching lease adapter): the new epoch. */
  takeOver(tableId: string): Promise<number>;
  /** The stored checkpoint text, as `P checkpoint:<tableId>` holds it, or null. */
  storedText(tableId: string): Promise<string | null>;
  /** The checkpoint itself is lost, its events and mark stay (a Redis that lost one key). */
  dropCheckpoint(tableId: string): Promise<void>;
  /** The stored checkpoint is replaced by `text`. */
  overwriteCheckpoint(tableId: string, text: string): Promise<void>;
  close?(): Promise<void>;
}

const event = (tableSeq: number, userId?: string): BufferedEvent => ({
  tableSeq,
  audience: userId === undefined ? { kind: 'all' } : { kind: 'user', userId },
  message: { type: 'table_closed', table_id: 't', table_seq: tableSeq },
});

/**
 * The CheckpointStore contract (services/table-worker/src/ports.ts; docs/dev/contracts.md, "Redis
 * layout"): what a table's next owner reads back, the bounded event buffer, the mark beside the
 * checkpoint, and the fence that refuses a stale owner's write.
 */
export function describeCheckpointStore(
  adapter: string,
  make: (options: { bufferSize: number }) => Promise<CheckpointStoreUnderTest>,
): void {
  describe(`CheckpointStore contract: ${adapter}`, () => {
    const opened: CheckpointStoreUnderTest[] = [];
    const open = async (bufferSize = 512): Promise<CheckpointStoreUnderTest> => {
      const s = await make({ bufferSize });
      opened.push(s);
      return s;
    };
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close?.();
    });

    it('knows nothing of a table never saved', async () => {
      const { store } = await open();
      expect(await store.load('t')).toBeNull();
      expect(await store.mark('t')).toBeNull();
    });

    it('reads back the last state saved, its table_seq and the events, oldest first', async () => {
      const { store } = await open();
      await store.save('t', 5, '{"n":1,"nested":{"a":[1,2]}}', [event(4), event(5, 'u1')]);
      await store.save('t', 7, '{"n":2}', [event(6), event(7)]);
      const loaded = await store.load('t');
      expect(loaded?.checkpoint).toEqual<TableCheckpoint>({ version: 1, tableId: 't', tableSeq: 7, state: { n: 2 } });
      expect(loaded?.events).toEqual([event(4), event(5, 'u1'), event(6), event(7)]);
    });

    it('keeps only the newest events past the buffer size; a save without events keeps them', async () => {
      const { store } = await open(4);
      await store.save('t', 3, '{}', [event(1), event(2), event(3)]);
      await store.save('t', 6, '{}', [event(4), event(5), event(6)]);
      expect((await store.load('t'))?.events.map((e) => e.tableSeq)).toEqual([3, 4, 5, 6]);
      await store.save('t', 6, '{"again":true}', []);
      const loaded = await store.load('t');
      expect(loaded?.events.map((e) => e.tableSeq)).toEqual([3, 4, 5, 6]);
      expect(loaded?.checkpoint.state).toEqual({ again: true });
    });

    it('a save at a table_seq the mark already reached drops the buffered events from there on, then adds its own', async () => {
      const { store } = await open();
      await store.save('t', 3, '{}', [event(1), event(2), event(3)]);
      // A save whose answer never came back (or whose replicas were late): the actor rolled back to 3.
      await store.save('t', 5, '{"lost":true}', [event(4, 'u1'), event(5)]);
      await store.save('t', 4, '{"again":true}', [event(4)]);
      const loaded = await store.load('t');
      expect(loaded?.events).toEqual([event(1), event(2), event(3), event(4)]);
      expect(loaded?.checkpoint).toMatchObject({ tableSeq: 4, state: { again: true } });
      // Nothing to supersede: nothing dropped.
      await store.save('t', 5, '{}', [event(5)]);
      expect((await store.load('t'))?.events.map((e) => e.tableSeq)).toEqual([1, 2, 3, 4, 5]);
      // Another lost save, then a save with no events at the rolled-back table_seq: dropped all the same.
      await store.save('t', 7, '{"lost":true}', [event(6), event(7)]);
      await store.save('t', 5, '{"quiet":true}', []);
      expect((await store.load('t'))?.events.map((e) => e.tableSeq)).toEqual([1, 2, 3, 4, 5]);
    });

    it('keeps tables apart', async () => {
      const { store } = await open();
      await store.save('a', 1, '{"t":"a"}', [event(1)], { mark: { handId: 'h-a', handNo: 2 } });
      await store.save('b', 9, '{"t":"b"}', []);
      expect((await store.load('a'))?.checkpoint).toMatchObject({ tableId: 'a', tableSeq: 1, state: { t: 'a' } });
      expect((await store.load('b'))?.checkpoint).toMatchObject({ tableId: 'b', tableSeq: 9, state: { t: 'b' } });
      expect((await store.load('b'))?.events).toEqual([]);
      expect(await store.mark('b')).toEqual({ tableSeq: 9, epoch: 0, handId: null });
    });

    it('writes the mark with every save: table_seq, epoch, the hand in progress and the last hand number', async () => {
      const { store } = await open();
      await store.save('t', 3, '{}', [], { mark: { handId: 'h-1', handNo: 6 } });
      expect(await store.mark('t')).toEqual<CheckpointMark>({ tableSeq: 3, epoch: 0, handId: 'h-1', handNo: 6 });
      await store.save('t', 4, '{}', [], { mark: { handId: null, handNo: 7 } });
      expect(await store.mark('t')).toEqual<CheckpointMark>({ tableSeq: 4, epoch: 0, handId: null, handNo: 7 });
      // Without a mark: no hand in progress, the hand number unknown.
      await store.save('t', 5, '{}', []);
      expect(await store.mark('t')).toEqual<CheckpointMark>({ tableSeq: 5, epoch: 0, handId: null });
    });

    it('stores the checkpoint as docs/dev/contracts.md says: the envelope, the epoch and the money section', async () => {
      const s = await open();
      const epoch = await s.takeOver('t');
      await s.store.save('t', 8, '{"x":1}', [], { fence: { epoch }, moneyJson: '{"lastHandNo":3,"seats":[]}' });
      expect(JSON.parse((await s.storedText('t'))!)).toEqual({
        version: 1,
        tableId: 't',
        tableSeq: 8,
        epoch,
        state: { x: 1 },
        money: { lastHandNo: 3, seats: [] },
      });
      // The money section is for the audit: a load gives the state alone.
      expect((await s.store.load('t'))?.checkpoint).toEqual({ version: 1, tableId: 't', tableSeq: 8, state: { x: 1 } });
    });

    it('a fenced write goes through while the epoch is the writer’s, and the mark names the epoch', async () => {
      const s = await open();
      const epoch = await s.takeOver('t');
      expect(epoch).toBe(1);
      await s.store.save('t', 2, '{"by":1}', [event(2)], { fence: { epoch }, mark: { handId: 'h', handNo: 0 } });
      expect((await s.store.load('t'))?.checkpoint.state).toEqual({ by: 1 });
      expect(await s.store.mark('t')).toEqual<CheckpointMark>({ tableSeq: 2, epoch: 1, handId: 'h', handNo: 0 });
    });

    it('refuses a stale owner’s write with StaleEpochError and changes nothing', async () => {
      const s = await open();
      const old = await s.takeOver('t');
      await s.store.save('t', 5, '{"by":"old"}', [event(5)], {
        fence: { epoch: old },
        mark: { handId: 'h', handNo: 1 },
      });
      const next = await s.takeOver('t');
      expect(next).toBeGreaterThan(old);
      await s.store.save('t', 9, '{"by":"new"}', [event(9)], {
        fence: { epoch: next },
        mark: { handId: null, handNo: 2 },
      });

      const stale = s.store.save('t', 6, '{"by":"old again"}', [event(6)], {
        fence: { epoch: old },
        mark: { handId: 'x', handNo: 1 },
      });
      await expect(stale).rejects.toBeInstanceOf(StaleEpochError);
      await expect(stale).rejects.toMatchObject({ tableId: 't', epoch: old, current: next, write: 'checkpoint' });

      const loaded = await s.store.load('t');
      expect(loaded?.checkpoint).toMatchObject({ tableSeq: 9, state: { by: 'new' } });
      expect(loaded?.events.map((e) => e.tableSeq)).toEqual([5, 9]);
      expect(await s.store.mark('t')).toEqual<CheckpointMark>({ tableSeq: 9, epoch: next, handId: null, handNo: 2 });
    });

    it('refuses a fence on a table nobody acquired (its epoch is 0); unfenced writes always go through', async () => {
      const s = await open();
      await expect(s.store.save('t', 1, '{}', [], { fence: { epoch: 1 } })).rejects.toMatchObject({
        name: 'StaleEpochError',
        epoch: 1,
        current: 0,
      });
      expect(await s.store.load('t')).toBeNull();
      expect(await s.store.mark('t')).toBeNull();
      await s.takeOver('t');
      await s.store.save('t', 2, '{"tool":true}', []);
      expect((await s.store.load('t'))?.checkpoint.state).toEqual({ tool: true });
      expect((await s.store.mark('t'))?.epoch).toBe(0);
    });

    it('a lost checkpoint leaves its mark: table_seq and the hand in progress survive', async () => {
      const s = await open();
      await s.store.save('t', 40, '{}', [event(40)], { mark: { handId: 'h-lost', handNo: 3 } });
      await s.dropCheckpoint('t');
      expect(await s.store.load('t')).toBeNull();
      expect(await s.store.mark('t')).toEqual<CheckpointMark>({ tableSeq: 40, epoch: 0, handId: 'h-lost', handNo: 3 });
    });

    it('an unreadable checkpoint is CheckpointCorruptError: not JSON, not the shape, or another table’s', async () => {
      const s = await open();
      await s.store.save('t', 1, '{}', []);
      for (const text of [
        'not json',
        '{"version":2,"tableId":"t","tableSeq":1,"state":{}}',
        '{"version":1,"tableId":"t","tableSeq":-1,"state":{}}',
        '{"version":1,"tableId":"other","tableSeq":1,"state":{}}',
      ]) {
        await s.overwriteCheckpoint('t', text);
        const load = s.store.load('t');
        await expect(load).rejects.toBeInstanceOf(CheckpointCorruptError);
        await expect(load).rejects.toMatchObject({ code: 'checkpoint_corrupt', tableId: 't' });
      }
    });
  });
}
