import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeaseGrant, TableLeases } from '../../src/ports.js';

/** One TableLeases adapter: every instance it makes shares one store, as workers share one Redis. */
export interface LeasesUnderTest {
  /** The leases of one process of worker `workerId`. */
  leases(workerId: string, options?: { readonly ttlMs?: number; readonly instance?: string }): TableLeases;
  close?(): Promise<void>;
}

async function acquired(leases: TableLeases, tableId: string): Promise<LeaseGrant> {
  const r = await leases.acquire(tableId);
  if (!r.acquired) throw new Error(`expected to acquire ${tableId}; held by ${r.holder.workerId}`);
  return r.grant;
}

/**
 * The TableLeases contract (services/table-worker/src/ports.ts; docs/architecture.md, "Ownership and
 * failover"): one holder per table at a time, an epoch that grows with every acquisition, renewal and
 * release by the holder only, expiry, and a restarted process taking its own worker id's lease over.
 */
export function describeLeases(adapter: string, make: () => Promise<LeasesUnderTest>): void {
  describe(`TableLeases contract: ${adapter}`, () => {
    const opened: LeasesUnderTest[] = [];
    const open = async (): Promise<LeasesUnderTest> => {
      const l = await make();
      opened.push(l);
      return l;
    };
    afterEach(async () => {
      for (const l of opened.splice(0)) await l.close?.();
    });

    it('a free table is acquired with epoch 1; another worker is refused and told the holder', async () => {
      const l = await open();
      const a = l.leases('wa', { instance: 'ia', ttlMs: 5_000 });
      const b = l.leases('wb');
      expect(a.workerId).toBe('wa');
      expect(a.ttlMs).toBe(5_000);
      expect(await a.epoch('t')).toBe(0);
      expect(await a.holder('t')).toBeNull();

      const grant = await acquired(a, 't');
      expect(grant).toEqual<LeaseGrant>({ tableId: 't', epoch: 1, value: 'wa|ia|1' });
      const refused = await b.acquire('t');
      expect(refused).toMatchObject({ acquired: false, holder: { workerId: 'wa', epoch: 1 } });
      if (!refused.acquired) {
        expect(refused.holder.ttlMs).toBeGreaterThan(0);
        expect(refused.holder.ttlMs).toBeLessThanOrEqual(5_000);
      }
      const holder = await b.holder('t');
      expect(holder).toMatchObject({ workerId: 'wa', epoch: 1 });
      expect(holder!.ttlMs).toBeGreaterThan(0);
      expect(holder!.ttlMs).toBeLessThanOrEqual(5_000);
      // Other tables are free.
      expect(await acquired(b, 'u')).toMatchObject({ tableId: 'u', epoch: 1 });
    });

    it('only the holder releases; the next owner then acquires at once with a higher epoch', async () => {
      const l = await open();
      const a = l.leases('wa');
      const b = l.leases('wb');
      const ga = await acquired(a, 't');
      expect(await b.release({ tableId: 't', epoch: ga.epoch, value: 'wb|x|1' })).toBe(false);
      expect(await a.holder('t')).toMatchObject({ workerId: 'wa' });
      expect(await a.release(ga)).toBe(true);
      expect(await a.holder('t')).toBeNull();
      expect(await a.release(ga)).toBe(false);
      const gb = await acquired(b, 't');
      expect(gb.epoch).toBe(2);
      expect(await a.epoch('t')).toBe(2);
      expect(await a.holder('t')).toMatchObject({ workerId: 'wb', epoch: 2 });
    });

    it('renewal answers per grant: true while it is the holder’s, false once another holds the table', async () => {
      const l = await open();
      const a = l.leases('wa');
      const b = l.leases('wb');
      expect(await a.renew([])).toEqual([]);
      const g1 = await acquired(a, 't1');
      const g2 = await acquired(a, 't2');
      expect(await a.renew([g1, g2])).toEqual([true, true]);
      await a.release(g2);
      const gb = await acquired(b, 't2');
      expect(await a.renew([g1, g2])).toEqual([true, false]);
      // The new holder's lease is untouched by the refused renewal.
      expect(await b.holder('t2')).toMatchObject({ workerId: 'wb', epoch: gb.epoch });
      expect(await b.renew([gb])).toEqual([true]);
    });

    it('a renewal gives the lease its whole TTL again', async () => {
      const l = await open();
      const a = l.leases('wa', { ttlMs: 1_000 });
      const g = await acquired(a, 't');
      await vi.waitFor(
        async () => {
          expect((await a.holder('t'))!.ttlMs).toBeLessThan(600);
        },
        { timeout: 5_000, interval: 20 },
      );
      expect(await a.renew([g])).toEqual([true]);
      expect((await a.holder('t'))!.ttlMs).toBeGreaterThan(600);
    });

    it('a lease not renewed expires: the next owner gets a new epoch, the old grant renews and releases nothing', async () => {
      const l = await open();
      const a = l.leases('wa', { ttlMs: 150 });
      const b = l.leases('wb', { ttlMs: 5_000 });
      const ga = await acquired(a, 't');
      await vi.waitFor(
        async () => {
          expect(await b.holder('t')).toBeNull();
        },
        { timeout: 5_000, interval: 20 },
      );
      const gb = await acquired(b, 't');
      expect(gb.epoch).toBe(ga.epoch + 1);
      expect(await a.renew([ga])).toEqual([false]);
      expect(await a.release(ga)).toBe(false);
      expect(await b.holder('t')).toMatchObject({ workerId: 'wb', epoch: gb.epoch });
    });

    it('a restarted process of the same worker id takes its lease over at once, with a new epoch', async () => {
      const l = await open();
      const old = l.leases('w1', { instance: 'old' });
      const restarted = l.leases('w1', { instance: 'new' });
      const g1 = await acquired(old, 't');
      const g2 = await acquired(restarted, 't');
      expect(g1.epoch).toBe(1);
      expect(g2).toEqual<LeaseGrant>({ tableId: 't', epoch: 2, value: 'w1|new|2' });
      expect(await old.renew([g1])).toEqual([false]);
      expect(await old.release(g1)).toBe(false);
      expect(await restarted.holder('t')).toMatchObject({ workerId: 'w1', epoch: 2 });
    });

    it('the epoch can be raised, never lowered, and the next acquisition is above it', async () => {
      const l = await open();
      const a = l.leases('wa');
      await a.raiseEpoch('t', 7);
      expect(await a.epoch('t')).toBe(7);
      await a.raiseEpoch('t', 3);
      expect(await a.epoch('t')).toBe(7);
      const g = await acquired(a, 't');
      expect(g.epoch).toBe(8);
      // Raising it under a held lease does not take the lease away.
      await a.raiseEpoch('t', 20);
      expect(await a.holder('t')).toMatchObject({ workerId: 'wa', epoch: 8 });
      expect(await a.renew([g])).toEqual([true]);
    });
  });
}
