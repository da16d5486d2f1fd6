import { describe, expect, it } from 'vitest';
import { HandBatcher } from './hand-batcher.js';
import type { HandWriteOutcome } from './money-store.js';

function written(job: unknown): HandWriteOutcome {
  return {
    ok: true,
    write: { result: 'written', handId: String(job), roomId: 'r', handNo: 1, endedAt: new Date(0), cashOuts: [] },
  };
}

/** A batcher whose writes all succeed, and the batches it wrote. */
function recording(maxSize: number, waitMs: number): { batcher: HandBatcher; batches: unknown[][] } {
  const batches: unknown[][] = [];
  const batcher = new HandBatcher({
    maxSize,
    waitMs,
    write: (jobs) => {
      batches.push([...jobs]);
      return Promise.resolve(jobs.map(written));
    },
  });
  return { batcher, batches };
}

describe('HandBatcher', () => {
  it('writes a batch at once when it is full, without waiting out waitMs', async () => {
    // A wait longer than the test's timeout: a batch written only by the timer would fail it.
    const { batcher, batches } = recording(3, 600_000);
    const writes = ['a', 'b', 'c'].map((j) => batcher.submit(j));
    expect(batches).toEqual([['a', 'b', 'c']]);
    expect((await Promise.all(writes)).map((w) => w.handId)).toEqual(['a', 'b', 'c']);
  });

  it('writes what it holds after waitMs when the batch does not fill', async () => {
    const { batcher, batches } = recording(16, 10);
    const first = [batcher.submit('a'), batcher.submit('b')];
    expect(batches).toEqual([]);
    await Promise.all(first);
    expect(batches).toEqual([['a', 'b']]);
  });

  it("gives each job its own outcome, and every job of a batch whose write fails that write's error", async () => {
    let fail = false;
    const batcher = new HandBatcher({
      maxSize: 3,
      waitMs: 600_000,
      write: (jobs) => {
        if (fail) return Promise.reject(new Error('database down'));
        // The second job refused, the third given no outcome at all.
        return Promise.resolve([written(jobs[0]), { ok: false, error: new Error('escrow_mismatch') }]);
      },
    });
    const [a, b, c] = ['a', 'b', 'c'].map((j) => batcher.submit(j));
    await expect(a).resolves.toMatchObject({ handId: 'a', result: 'written' });
    await expect(b).rejects.toThrow('escrow_mismatch');
    await expect(c).rejects.toThrow('the batch gave no outcome for this hand');
    fail = true;
    const again = ['d', 'e', 'f'].map((j) => batcher.submit(j));
    for (const w of again) await expect(w).rejects.toThrow('database down');
  });
});
