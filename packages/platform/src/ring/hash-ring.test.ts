import { describe, expect, it } from 'vitest';
import { HashRing } from './hash-ring.js';
import { murmur3 } from './murmur3.js';

const tableIds = Array.from({ length: 10_000 }, (_, i) => `table-${i}-${(i * 2654435761) >>> 0}`);

describe('murmur3', () => {
  it('matches the reference MurmurHash3_x86_32 vectors', () => {
    expect(murmur3('')).toBe(0);
    expect(murmur3('', 1)).toBe(0x514e28b7);
    expect(murmur3('hello')).toBe(0x248bfa47);
    expect(murmur3('Hello, world!', 1234)).toBe(0xfaf6cdb3);
    expect(murmur3('The quick brown fox jumps over the lazy dog')).toBe(0x2e4ff723);
    // UTF-8 bytes, not UTF-16 code units.
    expect(murmur3('中')).toBe(murmur3('\u4e2d'));
    expect(murmur3('é')).not.toBe(murmur3('e'));
  });
});

describe('HashRing', () => {
  it('is empty-safe and deterministic regardless of member order', () => {
    expect(new HashRing([]).ownerOf('t')).toBeUndefined();
    const a = new HashRing(['w-1', 'w-2', 'w-3']);
    const b = new HashRing(['w-3', 'w-1', 'w-2', 'w-1']);
    for (const id of tableIds.slice(0, 1000)) expect(a.ownerOf(id)).toBe(b.ownerOf(id));
  });

  it('spreads keys roughly evenly', () => {
    const ring = new HashRing(['w-0', 'w-1', 'w-2', 'w-3']);
    const counts = new Map<string, number>();
    for (const id of tableIds) counts.set(ring.ownerOf(id)!, (counts.get(ring.ownerOf(id)!) ?? 0) + 1);
    expect(counts.size).toBe(4);
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(10_000 / 4 / 1.35);
      expect(n).toBeLessThan((10_000 / 4) * 1.35);
    }
  });

  it('adding a worker moves about 1/N of 10,000 tables, all of them to the new worker', () => {
    const before = new HashRing(['w-0', 'w-1', 'w-2']);
    const after = new HashRing(['w-0', 'w-1', 'w-2', 'w-3']);
    let moved = 0;
    for (const id of tableIds) {
      const was = before.ownerOf(id);
      const now = after.ownerOf(id);
      if (was !== now) {
        moved++;
        // No table moves between two old workers.
        expect(now).toBe('w-3');
      }
    }
    // Ideal share is 1/4 = 2,500; allow the spread 160 virtual nodes give.
    expect(moved).toBeGreaterThan(2500 * 0.75);
    expect(moved).toBeLessThan(2500 * 1.25);
  });

  it('removing a worker moves only its own tables', () => {
    const before = new HashRing(['w-0', 'w-1', 'w-2', 'w-3']);
    const after = new HashRing(['w-0', 'w-1', 'w-3']);
    for (const id of tableIds) {
      const was = before.ownerOf(id)!;
      if (was !== 'w-2') expect(after.ownerOf(id)).toBe(was);
      else expect(after.ownerOf(id)).not.toBe('w-2');
    }
  });
});
