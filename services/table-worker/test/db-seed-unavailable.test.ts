// The room rows' source when Postgres cannot be reached: the table's UNAVAILABLE refusal (retry
// shortly), which the gateways and the directory retry, never an internal error. Against a Postgres
// address nothing listens on, and the machine's real server for the answer when it is up.
import { createServer } from 'node:net';
import { createPrisma, createTestDatabase, type TestDatabase } from '@felt/db';
import { ErrorCode } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableError } from '../src/actor/table-error.js';
import { DbSeedSource } from '../src/adapters/db-seed-source.js';

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const address = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

describe('DbSeedSource with Postgres unreachable', () => {
  it('load and claimEpoch refuse with UNAVAILABLE naming the table; reachable, an unknown room is simply absent', async () => {
    const down = createPrisma(`postgresql://postgres@127.0.0.1:${await closedPort()}/felt`);
    try {
      const seeds = new DbSeedSource(down);
      const tableId = '00000000-0000-4000-8000-000000000001';
      for (const call of [() => seeds.load(tableId), () => seeds.claimEpoch(tableId, 3, true)]) {
        const err = await call().then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(TableError);
        expect(err).toMatchObject({ code: ErrorCode.UNAVAILABLE, tableId });
      }
    } finally {
      await down.$disconnect();
    }
    expect(await new DbSeedSource(db.prisma).load('00000000-0000-4000-8000-000000000002')).toBeNull();
  });
});
