import { bankrollFlows, createTestDatabase, fundHouseBankroll, type TestDatabase } from '@felt/db';
import type { TableMessage, TableState } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom } from '../../../test/money/fixtures.js';
import { TableActor } from '../src/actor/table-actor.js';
import { DbSeedSource } from '../src/adapters/db-seed-source.js';
import { harness, pass } from './support/fakes.js';

// Invariant 10 of docs/architecture.md: bots buy in from the house bankroll an operator funds,
// within per-room and per-day limits, never from newly granted chips; a table whose bot the
// bankroll will not stake says so.

const BOT_FILL = { botFill: { mode: 'fill' as const, targetPlayers: 3 }, buyIn: { min: 100, max: 400 } };

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

const botSeats = (roomId: string): Promise<number> =>
  db.prisma.membership.count({ where: { roomId, status: 'active', user: { name: { startsWith: 'bot-' } } } });

function lastState(messages: readonly TableMessage[]): TableState {
  return messages.filter((m): m is TableState => m.type === 'table_state').at(-1)!;
}

describe('bot fill and the house bankroll (real Postgres)', () => {
  it('an empty bankroll seats no bot and the table says so; once funded, the bots sit; no chip is granted', async () => {
    const room = await createRoom(db.prisma, [{ name: 'bankroll1', buyIn: 200 }], BOT_FILL);
    const granted = (await db.prisma.ledgerAccount.findUniqueOrThrow({ where: { key: 'grant_source' } })).balance;
    const h = harness();
    const seeds = new DbSeedSource(db.prisma);
    const seed = (await seeds.load(room.roomId))!;
    const actor = TableActor.create(room.roomId, seed, 0, { ...h.deps, seeds });
    const human = room.users[0]!.id;
    await actor.submit({ kind: 'attach', connectionId: 'c1', streamId: 's', userId: human });
    expect(await botSeats(room.roomId)).toBe(0);
    expect(lastState(h.publisher.toUser(human)).bots_blocked).toBe('bankroll_empty');
    // An operator funds the bankroll; the table asks again after its back-off.
    await fundHouseBankroll(db.prisma, 5_000n, 'bankroll1');
    await pass(h, 31_000, 1_000);
    // The tick that asked again runs its Postgres round trip in the mailbox: a command after it waits for it.
    await actor.submit({ kind: 'refresh' });
    expect(await botSeats(room.roomId)).toBe(2);
    expect(lastState(h.publisher.toUser(human)).bots_blocked).toBeUndefined();
    // The bots' 800 chips came from the bankroll: the grant source moved by the operator's funding only.
    expect((await db.prisma.ledgerAccount.findUniqueOrThrow({ where: { key: 'grant_source' } })).balance).toBe(
      granted - 5_000n,
    );
    expect((await bankrollFlows(db.prisma)).report).toMatchObject({ balance: 4_200n, staked: 800n });
    await actor.stop();
  });

  it('the per-room limit: the bots that fit are seated, the next is refused and the table says why', async () => {
    await fundHouseBankroll(db.prisma, 100_000n, 'bankroll2');
    const room = await createRoom(db.prisma, [{ name: 'bankroll2', buyIn: 200 }], BOT_FILL);
    const h = harness();
    const seeds = new DbSeedSource(db.prisma, () => Promise.resolve(false), { perRoom: 500n });
    const actor = TableActor.create(room.roomId, (await seeds.load(room.roomId))!, 0, { ...h.deps, seeds });
    const human = room.users[0]!.id;
    await actor.submit({ kind: 'attach', connectionId: 'c1', streamId: 's', userId: human });
    // Each bot buys in for the room's maximum, 400: one fits under 500, the second would not.
    expect(await botSeats(room.roomId)).toBe(1);
    expect(lastState(h.publisher.toUser(human)).bots_blocked).toBe('room_limit');
    await actor.stop();
  });
});
