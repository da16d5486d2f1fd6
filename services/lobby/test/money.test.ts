import { SeededRng } from '@felt/engine';
import { runAudit } from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directSink, heldSink, deliverCashOut } from '../../../test/money/fixtures.js';
import { SimTable } from '../../../test/money/sim-table.js';
import { listenRoomEvents, startHarness, type Client, type Harness } from './harness.js';

type User = Client & { id: string; name: string };

const CONFIG = { game: 'holdem', stakes: { smallBlind: 1, bigBlind: 2 }, buyIn: { min: 40, max: 200 } };

async function room(host: User, buyIn: number): Promise<{ session_id: string; code: string }> {
  const res = await host.post<{ session_id: string; code: string }>('/api/rooms', {
    config: CONFIG,
    sit: { buy_in: buyIn },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function wallet(c: Client): Promise<number> {
  return (await c.get<{ wallet: number }>('/api/me')).body.wallet;
}

async function refused(res: Promise<{ status: number; body: unknown }>, status: number, code: string): Promise<void> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body).toMatchObject({ error: { code } });
}

describe('top-ups and cash-outs where no table worker moves chips (ledger mode)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('tops up within the buy-in range, at once, repeat-safe with an Idempotency-Key', async () => {
    const host = await h.user();
    const r = await room(host, 100);
    const res = await host.post<{ status: string; escrow: number; wallet: number; amount: number; replayed: boolean }>(
      `/api/rooms/${r.session_id}/top-up`,
      { amount: 60 },
      { 'idempotency-key': 'rebuy-1' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'applied', escrow: 160, wallet: 9_840, amount: 60, replayed: false });
    const again = await host.post(
      `/api/rooms/${r.session_id}/top-up`,
      { amount: 60 },
      { 'idempotency-key': 'rebuy-1' },
    );
    expect(again.body).toMatchObject({ escrow: 160, wallet: 9_840, replayed: true });
    await refused(
      host.post(`/api/rooms/${r.session_id}/top-up`, { amount: 70 }, { 'idempotency-key': 'rebuy-1' }),
      409,
      'idempotency_conflict',
    );

    const other = await h.user();
    const before = await h.snapshot();
    await refused(host.post(`/api/rooms/${r.session_id}/top-up`, { amount: 41 }), 400, 'buy_in_out_of_range');
    await refused(host.post(`/api/rooms/${r.session_id}/top-up`, { amount: 0 }), 400, 'invalid_request');
    await refused(other.post(`/api/rooms/${r.session_id}/top-up`, { amount: 10 }), 409, 'not_seated');
    expect(await h.snapshot()).toEqual(before);

    // Leaving pays the whole stack back, top-up included, through the cash-out path.
    const left = await host.post<{ status: string; refunded: number }>(`/api/rooms/${r.session_id}/leave`);
    expect(left.body).toMatchObject({ status: 'left', refunded: 160 });
    expect(await wallet(host)).toBe(10_000);
    expect(await h.db.prisma.cashOut.count({ where: { roomId: r.session_id, status: 'paid' } })).toBe(1);
    expect((await runAudit(h.db.prisma)).issues).toEqual([]);
  });

  it('refuses a top-up the wallet cannot cover, changing nothing', async () => {
    const host = await h.user();
    const r = await room(host, 200);
    const poor = await h.user();
    await poor.post('/api/rooms/join', { code: r.code, buy_in: 40 });
    // Most of the wallet goes to a high-stakes table.
    const big = await poor.post('/api/rooms', {
      config: { game: 'holdem', stakes: { smallBlind: 10, bigBlind: 20 }, buyIn: { min: 400, max: 9_960 } },
      sit: { buy_in: 9_900 },
    });
    expect(big.status, JSON.stringify(big.body)).toBe(201);
    expect(await wallet(poor)).toBe(60);
    const before = await h.snapshot();
    await refused(poor.post(`/api/rooms/${r.session_id}/top-up`, { amount: 100 }), 409, 'insufficient_funds');
    expect(await h.snapshot()).toEqual(before);
  });
});

describe('worker cash-out mode (the table sends final stacks)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ cashOutMode: 'worker' });
  });
  afterAll(async () => {
    await h.close();
  });

  it('leaves at the hand boundary: 202 leaving, the table sends the stack, the persister pays it', async () => {
    const host = await h.user();
    const r = await room(host, 150);
    const p = await h.user();
    await p.post('/api/rooms/join', { code: r.code, buy_in: 150 });
    const sink = directSink(h.db.prisma);
    const table = await SimTable.load(h.db.prisma, r.session_id, sink, new SeededRng('lobby-leave'));
    await table.playHand();

    const topUp = await p.post<{ status: string }>(`/api/rooms/${r.session_id}/top-up`, { amount: 20 });
    expect(topUp.body).toMatchObject({ status: 'pending' });
    const listener = await listenRoomEvents(h);
    let left;
    try {
      left = await p.post<{ status: string; refunded: number }>(`/api/rooms/${r.session_id}/leave`);
      expect(await listener.settled()).toEqual([{ room_id: r.session_id, type: 'member_leaving', user_id: p.id }]);
    } finally {
      await listener.close();
    }
    expect(left.status).toBe(202);
    expect(left.body).toMatchObject({ status: 'leaving', refunded: 0 });
    await refused(p.post(`/api/rooms/${r.session_id}/top-up`, { amount: 10 }), 409, 'leave_requested');

    // The table lets the player go; the pending top-up was never added, so it goes home too.
    await table.sync();
    expect(sink.cashOuts).toHaveLength(1);
    const stack = sink.cashOuts[0]!.final_stack;
    // The stack the table reports, plus the 20 it never added.
    expect(await wallet(p)).toBe(10_000 - 150 - 20 + stack + 20);
    expect((await h.db.prisma.topUp.findFirstOrThrow({ where: { userId: p.id } })).status).toBe('cashed_out');
    expect((await runAudit(h.db.prisma)).issues).toEqual([]);
  });

  it('refuses a new seat at a room while the last seat there is still being cashed out', async () => {
    const host = await h.user();
    const r = await room(host, 150);
    const p = await h.user();
    await p.post('/api/rooms/join', { code: r.code, buy_in: 150 });
    const sink = heldSink();
    const table = await SimTable.load(h.db.prisma, r.session_id, sink, new SeededRng('lobby-rejoin'));
    await table.playHand();
    await p.post(`/api/rooms/${r.session_id}/leave`);
    await table.sync();
    // The cash-out is recorded but hand 1 is still in the queue: not paid yet.
    expect((await deliverCashOut(h.db.prisma, sink.cashOuts[0]!)).status).toBe('pending');
    await refused(p.post('/api/rooms/join', { code: r.code, buy_in: 100 }), 409, 'cash_out_pending');
    await directSink(h.db.prisma).hand(sink.hands[0]!);
    const again = await p.post('/api/rooms/join', { code: r.code, buy_in: 100 });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it('closes through the table: 202 closing, never listed, refunds from the table, then closed', async () => {
    const host = await h.user();
    const r = await room(host, 120);
    const p = await h.user();
    await p.post('/api/rooms/join', { code: r.code, buy_in: 180 });
    const sink = directSink(h.db.prisma);
    const table = await SimTable.load(h.db.prisma, r.session_id, sink, new SeededRng('lobby-close'));
    await table.playHand();
    const walletsBefore = [await wallet(host), await wallet(p)];

    const res = await host.req<{ status: string }>('DELETE', `/api/rooms/${r.session_id}`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'closing' });
    const listed = await host.get<{ rooms: { session_id: string }[] }>('/api/rooms');
    expect(listed.body.rooms.map((x) => x.session_id)).not.toContain(r.session_id);
    // A restart of the lobby only reminds the table.
    expect(await h.lobby.rooms.finishClosingRooms()).toBe(1);

    // A hand is running when the table hears of it: it is cancelled, stacks go back whole.
    await table.playHand(() => table.sync());
    expect(table.isClosed).toBe(true);
    expect(sink.cashOuts.map((c) => c.reason)).toEqual(['room_close', 'room_close']);
    const stacks = new Map(sink.cashOuts.map((c) => [c.user_id, c.final_stack]));
    expect(await wallet(host)).toBe(walletsBefore[0]! + stacks.get(host.id)!);
    expect(await wallet(p)).toBe(walletsBefore[1]! + stacks.get(p.id)!);
    expect(stacks.get(host.id)! + stacks.get(p.id)!).toBe(
      300 - Number((await h.db.prisma.hand.findFirstOrThrow({ where: { roomId: r.session_id } })).rake),
    );
    expect((await host.get<{ status: string }>(`/api/rooms/${r.session_id}`)).body).toMatchObject({ status: 'closed' });
    expect((await runAudit(h.db.prisma)).issues).toEqual([]);
  });
});
