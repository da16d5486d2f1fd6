import type { CompletedHandJob } from '@felt/platform';
import { describe, expect, it } from 'vitest';
import { MemoryHandSink } from '../adapters/memory-hand-sink.js';
import { rememberingSentHands, UnconfirmedHands } from './unconfirmed-hands.js';

const job = (tableId: string, handNo: number): CompletedHandJob =>
  ({ hand_id: `${tableId}-hand-${handNo}`, room_id: tableId, hand_no: handNo }) as CompletedHandJob;

describe('UnconfirmedHands', () => {
  it('keeps each table’s hands until confirmed, hands the ones the rows lack back in hand order', () => {
    const u = new UnconfirmedHands();
    for (const n of [3, 1, 2]) u.sent(job('t1', n));
    u.sent(job('t2', 7));
    u.sent(job('t1', 2)); // a copy sent again: still one
    expect(u.size).toBe(4);
    u.confirmed('t1', 't1-hand-1');
    expect(u.pendingAfter('t1', 0).map((j) => j.hand_no)).toEqual([2, 3]);
    // The rows hold hand 2 (its outcome was never heard): forgotten.
    expect(u.pendingAfter('t1', 2).map((j) => j.hand_no)).toEqual([3]);
    expect(u.size).toBe(2);
    u.confirmed('t1', 't1-hand-3');
    u.confirmed('t2', 't2-hand-7');
    u.confirmed('t9', 'nothing');
    expect(u.size).toBe(0);
    expect(u.pendingAfter('t1', 0)).toEqual([]);
  });

  it('keeps at most its bound per table, dropping the oldest', () => {
    const u = new UnconfirmedHands(3);
    for (let n = 1; n <= 5; n++) u.sent(job('t1', n));
    expect(u.pendingAfter('t1', 0).map((j) => j.hand_no)).toEqual([3, 4, 5]);
  });

  it('the remembering sink keeps a hand only once the queue took it', async () => {
    const sink = new MemoryHandSink();
    const u = new UnconfirmedHands();
    const hands = rememberingSentHands(sink, u);
    sink.fail = true;
    await expect(hands.enqueue(job('t1', 1))).rejects.toThrow();
    expect(u.size).toBe(0);
    sink.fail = false;
    await hands.enqueue(job('t1', 1));
    expect(u.size).toBe(1);
    expect(sink.log).toEqual(['hand:1']);
    expect(await hands.pendingHandsOf!('t1')).toBe(1);
  });
});
