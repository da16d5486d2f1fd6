// GET /api/wallet/history on the real database: every movement of the caller's wallet, newest first,
// keyset pages that add up to the whole history, each entry's resulting balance, only ever the
// caller's own account, and a typed 400 (nothing else) for a bad page size or cursor.
import { grant, Prisma, withTransaction } from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletHistoryPageSchema, type WalletEntry, type WalletHistoryPage } from '@felt/protocol';
import { walletPageQuery } from '../src/wallet-history.js';
import { expectError, startHarness, type Client, type Harness } from './harness.js';

type User = Client & { id: string; name: string };

const ROOM = { game: 'holdem', stakes: { smallBlind: 1, bigBlind: 2 }, seats: 6, buyIn: { min: 40, max: 400 } };

let h: Harness;
let alice: User;
let bob: User;
let aliceRoom: { session_id: string; code: string };
let bobRoom: { session_id: string; code: string };

async function page(user: Client, query = ''): Promise<WalletHistoryPage> {
  const res = await user.get<WalletHistoryPage>(`/api/wallet/history${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // The contract's schema, with nothing left over.
  expect(walletHistoryPageSchema.parse(res.body)).toEqual(res.body);
  return res.body;
}

/** Every entry, walked page by page. */
async function walk(user: Client, pageSize: number): Promise<{ entries: WalletEntry[]; pages: number }> {
  const entries: WalletEntry[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const qs: string = `?page_size=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const p = await page(user, qs);
    pages++;
    expect(p.entries.length).toBeLessThanOrEqual(pageSize);
    if (p.next !== null) expect(p.entries.length).toBe(pageSize);
    entries.push(...p.entries);
    cursor = p.next;
  } while (cursor !== null && pages < 100);
  return { entries, pages };
}

beforeAll(async () => {
  h = await startHarness();
  alice = await h.user();
  bob = await h.user();
  // Alice: the sign-up grant, a buy-in, a top-up, a leave (cash-out), a bonus, a second room and
  // its deletion (refund).
  const created = await alice.post<{ session_id: string; code: string }>('/api/rooms', {
    config: ROOM,
    sit: { buy_in: 100 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  aliceRoom = created.body;
  expect((await alice.post(`/api/rooms/${aliceRoom.session_id}/top-up`, { amount: 50 })).status).toBe(200);
  expect((await alice.post(`/api/rooms/${aliceRoom.session_id}/leave`)).status).toBe(200);
  await withTransaction(h.db.prisma, (tx) =>
    grant(tx, { userId: alice.id, amount: 250n, idempotencyKey: `bonus:${alice.id}`, memo: { reason: 'bonus' } }),
  );
  const second = await alice.post<{ session_id: string }>('/api/rooms', { config: ROOM, sit: { buy_in: 300 } });
  expect(second.status).toBe(201);
  expect((await alice.req('DELETE', `/api/rooms/${second.body.session_id}`)).status).toBe(200);
  // Bob: his grant and a buy-in at a room of his own.
  const bobs = await bob.post<{ session_id: string; code: string }>('/api/rooms', {
    config: ROOM,
    sit: { buy_in: 40 },
  });
  expect(bobs.status).toBe(201);
  bobRoom = bobs.body;
});

afterAll(async () => {
  await h.close();
});

describe('GET /api/wallet/history', () => {
  it('lists every movement of the wallet, newest first, with its kind, signed amount, balance and room', async () => {
    const p = await page(alice);
    expect(p.next).toBeNull();
    expect(p.entries.map((e) => [e.kind, e.amount])).toEqual([
      ['refund', 300],
      ['buy_in', -300],
      ['grant', 250],
      ['cash_out', 150],
      ['top_up', -50],
      ['buy_in', -100],
      ['grant', 10_000],
    ]);
    expect(p.entries.map((e) => e.balance)).toEqual([10_250, 9_950, 10_250, 10_000, 9_850, 9_900, 10_000]);
    const me = await alice.get<{ wallet: number }>('/api/me');
    expect(p.entries[0]!.balance).toBe(me.body.wallet);
    expect(p.entries[5]!.room).toEqual({ session_id: aliceRoom.session_id, code: aliceRoom.code });
    expect(p.entries[4]!.room?.session_id).toBe(aliceRoom.session_id);
    expect(p.entries[2]!.room).toBeNull();
    expect(p.entries[6]!.room).toBeNull();
    const times = p.entries.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('pages by cursor: the pages add up to the whole history, in order, each balance following from the next', async () => {
    const whole = (await page(alice, '?page_size=100')).entries;
    for (const size of [1, 2, 3, 7]) {
      const { entries, pages } = await walk(alice, size);
      expect(entries).toEqual(whole);
      expect(pages).toBe(Math.ceil(whole.length / size));
    }
    for (let i = 0; i + 1 < whole.length; i++) {
      expect(whole[i]!.balance - whole[i]!.amount).toBe(whole[i + 1]!.balance);
    }
    expect(whole.at(-1)!.balance - whole.at(-1)!.amount).toBe(0);
    expect(new Set(whole.map((e) => e.id)).size).toBe(whole.length);
  });

  it('keeps the balances right for movements added between two pages', async () => {
    const first = await page(alice, '?page_size=2');
    await withTransaction(h.db.prisma, (tx) =>
      grant(tx, { userId: alice.id, amount: 5n, idempotencyKey: `late-bonus:${alice.id}` }),
    );
    const second = await page(alice, `?page_size=2&cursor=${encodeURIComponent(first.next!)}`);
    // The second page carries on from where the first stopped, unmoved by the newer grant.
    expect(second.entries[0]!.balance).toBe(first.entries[1]!.balance - first.entries[1]!.amount);
    expect((await page(alice, '?page_size=1')).entries[0]).toMatchObject({ kind: 'grant', amount: 5, balance: 10_255 });
  });

  it("shows only the caller's own wallet, whatever cursor they send", async () => {
    const b = await page(bob);
    expect(b.entries.map((e) => [e.kind, e.amount, e.balance])).toEqual([
      ['buy_in', -40, 9_960],
      ['grant', 10_000, 10_000],
    ]);
    expect(b.entries[0]!.room).toEqual({ session_id: bobRoom.session_id, code: bobRoom.code });
    const aliceIds = new Set((await page(alice, '?page_size=100')).entries.map((e) => e.id));
    expect(b.entries.some((e) => aliceIds.has(e.id))).toBe(false);
    // Alice's cursor names a position, not an account: in Bob's hands it pages Bob's wallet.
    const aliceFirst = await page(alice, '?page_size=1');
    const withAliceCursor = await page(bob, `?cursor=${encodeURIComponent(aliceFirst.next!)}`);
    expect(withAliceCursor.entries.every((e) => !aliceIds.has(e.id))).toBe(true);
    expect(withAliceCursor.entries.map((e) => e.id)).toEqual(
      b.entries.filter((e) => withAliceCursor.entries.some((w) => w.id === e.id)).map((e) => e.id),
    );
    // A query string cannot name another user.
    const named = await page(bob, `?user_id=${alice.id}&account=wallet:${alice.id}`);
    expect(named.entries.map((e) => e.id)).toEqual(b.entries.map((e) => e.id));
  });

  it('lists an empty history for an account with no movements', async () => {
    const h2 = await startHarness({ signupGrant: 0 });
    try {
      const newcomer = await h2.user();
      const res = await newcomer.get('/api/wallet/history');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ entries: [], next: null });
    } finally {
      await h2.close();
    }
  });

  it('refuses a request without a session', async () => {
    expectError(await h.client().get('/api/wallet/history'), 401, 'unauthenticated');
  });

  it('refuses a bad page size or cursor with a typed 400 and nothing else', async () => {
    const forged = (s: unknown): string => Buffer.from(JSON.stringify({ s })).toString('base64url');
    const bad = [
      '?page_size=0',
      '?page_size=101',
      '?page_size=-1',
      '?page_size=2.5',
      '?page_size=abc',
      '?page_size=1e400',
      '?cursor=not-a-cursor',
      `?cursor=${'A'.repeat(513)}`,
      '?cursor=',
      `?cursor=${forged('-1')}`,
      `?cursor=${forged('0')}`,
      `?cursor=${forged(5)}`,
      `?cursor=${forged('9223372036854775808')}`,
      `?cursor=${forged('1'.repeat(40))}`,
      `?cursor=${Buffer.from('[1]').toString('base64url')}`,
      `?cursor=${Buffer.from('null').toString('base64url')}`,
    ];
    for (const q of bad) {
      const res = await alice.get(`/api/wallet/history${q}`);
      const body = expectError(res, 400, 'invalid_request');
      expect(Object.keys(res.body as object), q).toEqual(['error']);
      expect(JSON.stringify(body), q).not.toMatch(/ledger_|seq|prisma|SELECT/i);
    }
  });

  it('serves a page from the (account_id, seq) index, walked backwards, with no sort of the history', async () => {
    const plan = await h.db.prisma.$transaction(async (tx) => {
      // The test tables are tiny, so the planner would scan them whatever the indexes: ask it
      // how it serves the page when a scan is not an option.
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      const rows = await tx.$queryRaw<{ 'QUERY PLAN': string }[]>(
        Prisma.sql`EXPLAIN ${walletPageQuery(alice.id, 1_000_000n, 21)}`,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Limit[\s\S]*Index Scan Backward using ledger_entries_account_id_seq_idx/);
    expect(plan).not.toMatch(/Sort/);
  });
});
