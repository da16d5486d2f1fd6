import { describe, expect, it } from 'vitest';
import type { TableEvent } from '@felt/protocol';
import { CommandHistory } from './command-history.js';
import { EventBuffer, type BufferedEvent } from './event-buffer.js';

function event(seq: number, userId?: string): BufferedEvent {
  return {
    tableSeq: seq,
    audience: userId ? { kind: 'user', userId } : { kind: 'all' },
    message: { type: 'table_closed', table_id: 't', table_seq: seq },
  };
}

describe('EventBuffer', () => {
  it('replays after a watermark only what the viewer may see, in order', () => {
    const b = new EventBuffer();
    b.push(event(1));
    b.push(event(2, 'ann'));
    b.push(event(3, 'bob'));
    b.push(event(5));
    const seqs = (r: { events: TableEvent[] }) => r.events.map((e) => e.table_seq);
    expect(seqs(b.since(0, 'ann'))).toEqual([1, 2, 5]);
    expect(seqs(b.since(0, 'bob'))).toEqual([1, 3, 5]);
    expect(seqs(b.since(0, null))).toEqual([1, 5]);
    expect(seqs(b.since(2, 'ann'))).toEqual([5]);
    expect(b.since(0, 'ann').complete).toBe(true);
  });

  it('keeps the last hand_voided pending for attaching connections until another hand finishes', () => {
    const b = new EventBuffer();
    const all = { kind: 'all' } as const;
    const voided = {
      type: 'hand_voided',
      table_id: 't',
      table_seq: 2,
      hand_id: 'h1',
      hand_seq: 0,
      reason: 'checkpoint_lost',
      stacks: [],
    } as unknown as TableEvent;
    expect(b.pendingVoid()).toBeNull();
    b.push(event(1));
    b.push({ tableSeq: 2, audience: all, message: voided });
    b.push(event(3));
    expect(b.pendingVoid()).toBe(voided);
    // A copy told again to one player later is not the announcement: a stream that carried the
    // original must not look as if it missed the copy's table_seq.
    b.push({ tableSeq: 4, audience: { kind: 'user', userId: 'bob' }, message: { ...voided, table_seq: 4 } });
    expect(b.pendingVoid()).toBe(voided);
    const commit = { type: 'seed_commit', table_id: 't', table_seq: 5, hand_id: 'h2' } as unknown as TableEvent;
    b.push({ tableSeq: 5, audience: all, message: commit });
    expect(b.pendingVoid()).toBe(voided);
    const result = { type: 'hand_result', table_id: 't', table_seq: 6, hand_id: 'h2' } as unknown as TableEvent;
    b.push({ tableSeq: 6, audience: all, message: result });
    expect(b.pendingVoid()).toBeNull();
  });

  it('is bounded, and says when a replay is incomplete because events were dropped', () => {
    const b = new EventBuffer(undefined, 3);
    for (let s = 1; s <= 6; s++) b.push(event(s));
    expect(b.length).toBe(3);
    expect(b.since(0, null)).toMatchObject({ complete: false });
    expect(b.since(2, null)).toMatchObject({ complete: false });
    expect(b.since(3, null)).toMatchObject({ complete: true });
    expect(b.since(3, null).events.map((e) => e.table_seq)).toEqual([4, 5, 6]);
    // The bound and the eviction mark survive a round trip through JSON (the checkpoint).
    const again = new EventBuffer(JSON.parse(JSON.stringify(b.toJSON())) as ReturnType<EventBuffer['toJSON']>, 3);
    expect(again.since(2, null).complete).toBe(false);
    expect(again.since(3, null).events).toHaveLength(3);
  });

  it('keeps exactly the last `size` events through many drops, read between pushes or not', () => {
    const b = new EventBuffer(undefined, 3);
    for (let s = 1; s <= 40; s++) {
      b.push(event(s));
      expect(b.length).toBe(Math.min(s, 3));
      if (s % 5 !== 0) continue; // read every fifth push: dropped ones pile up past the bound between reads
      const kept = b.since(0, null);
      expect(kept.events.map((e) => e.table_seq)).toEqual([s - 2, s - 1, s].filter((x) => x >= 1));
      expect(kept.complete).toBe(s <= 3);
      expect(b.since(Math.max(0, s - 3), null).complete).toBe(true);
    }
    expect(b.toJSON()).toMatchObject({ evictedThrough: 37 });
    expect(b.toJSON().events.map((e) => e.tableSeq)).toEqual([38, 39, 40]);
  });
});

describe('CommandHistory', () => {
  it('remembers each player’s results by command_id, bounded per player', () => {
    const h = new CommandHistory({}, 2);
    h.record('ann', 'c1', { ok: true, atTableSeq: 4 });
    h.record('ann', 'c2', { ok: false, code: 'illegal_action', message: 'no', reason: 'cannot_check' });
    expect(h.lookup('ann', 'c1')).toEqual({ ok: true, atTableSeq: 4 });
    expect(h.lookup('bob', 'c1')).toBeUndefined();
    h.record('ann', 'c3', { ok: true, atTableSeq: 9 });
    expect(h.lookup('ann', 'c1')).toBeUndefined();
    expect(h.lookup('ann', 'c2')).toMatchObject({ code: 'illegal_action', reason: 'cannot_check' });
    const restored = new CommandHistory(JSON.parse(JSON.stringify(h.toJSON())) as Record<string, never[]>, 2);
    expect(restored.lookup('ann', 'c3')).toEqual({ ok: true, atTableSeq: 9 });
    restored.retain(new Set(['bob']));
    expect(restored.lookup('ann', 'c3')).toBeUndefined();
  });
});

describe('CommandHistory over hands', () => {
  const ok = (atTableSeq: number) => ({ ok: true as const, atTableSeq });

  it('keeps a hand command while its hand or the next is on, and drops it once two more hands completed', () => {
    const h = new CommandHistory();
    const members = new Set(['ann']);
    h.record('ann', 'act-1', ok(10), 4);
    h.record('ann', 'sit', ok(11));
    h.retain(members, 4);
    h.retain(members, 5);
    expect(h.lookup('ann', 'act-1')).toEqual(ok(10));
    h.retain(members, 6);
    expect(h.lookup('ann', 'act-1')).toBeUndefined();
    // The other commands are not about a hand: hands completing do not drop them.
    h.retain(members, 60);
    expect(h.lookup('ann', 'sit')).toEqual(ok(11));
    // The tag goes into the checkpoint and comes back.
    h.record('ann', 'act-2', ok(12), 60);
    const restored = new CommandHistory(JSON.parse(JSON.stringify(h.toJSON())) as ReturnType<CommandHistory['toJSON']>);
    restored.retain(members, 61);
    expect(restored.lookup('ann', 'act-2')).toEqual(ok(12));
    restored.retain(members, 62);
    expect(restored.lookup('ann', 'act-2')).toBeUndefined();
  });

  it('bounds hand commands and the other commands separately, oldest first', () => {
    const h = new CommandHistory({}, 2, 3);
    h.record('ann', 'sit-1', ok(1));
    h.record('ann', 'sit-2', ok(2));
    for (let i = 0; i < 5; i++) h.record('ann', `act-${i}`, ok(10 + i), 0);
    expect(h.toJSON().ann!.map((r) => r.id)).toEqual(['sit-1', 'sit-2', 'act-2', 'act-3', 'act-4']);
    h.record('ann', 'sit-3', ok(3));
    expect(h.toJSON().ann!.map((r) => r.id)).toEqual(['sit-2', 'act-2', 'act-3', 'act-4', 'sit-3']);
  });

  it('reads a checkpoint written before hands bounded it: its records count as the other commands', () => {
    const h = new CommandHistory({ ann: [{ id: 'old', result: ok(5) }] });
    h.retain(new Set(['ann']), 100);
    expect(h.lookup('ann', 'old')).toEqual(ok(5));
  });
});
