import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TransactionRetriesExhaustedError, withTransaction, type TestDatabase } from '@felt/db';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.$executeRawUnsafe('CREATE TABLE "counter" ("id" int PRIMARY KEY, "n" int NOT NULL)');
  await db.prisma.$executeRawUnsafe('INSERT INTO "counter" VALUES (1, 0)');
});

afterAll(async () => {
  await db.drop();
});

async function readCounter(): Promise<number> {
  const [row] = await db.prisma.$queryRaw<{ n: number }[]>`SELECT "n" FROM "counter" WHERE "id" = 1`;
  return row!.n;
}

describe('withTransaction', () => {
  it('re-runs serializable transactions that fail with 40001, so every increment lands exactly once', async () => {
    const start = await readCounter();
    let attempts = 0;
    // The first two attempts (two different transactions: nothing has failed yet) both read before
    // either writes, so they overlap for certain and one of them must be retried.
    let read = 0;
    let bothRead!: () => void;
    const bothHaveRead = new Promise<void>((resolve) => (bothRead = resolve));
    await Promise.all(
      Array.from({ length: 8 }, () =>
        withTransaction(
          db.prisma,
          async (tx) => {
            const attempt = ++attempts;
            const [row] = await tx.$queryRaw<{ n: number }[]>`SELECT "n" FROM "counter" WHERE "id" = 1`;
            if (attempt <= 2) {
              if (++read === 2) bothRead();
              await bothHaveRead;
            }
            await tx.$executeRaw`UPDATE "counter" SET "n" = ${row!.n + 1} WHERE "id" = 1`;
          },
          { isolationLevel: 'Serializable', maxAttempts: 50 },
        ),
      ),
    );
    expect(await readCounter()).toBe(start + 8);
    // Overlapping read-modify-writes under SERIALIZABLE conflict: some attempts were retried.
    expect(attempts).toBeGreaterThan(8);
  });

  it('gives up after maxAttempts with a typed error and leaves nothing behind', async () => {
    const start = await readCounter();
    const err = await withTransaction(
      db.prisma,
      async (tx) => {
        await tx.$executeRaw`UPDATE "counter" SET "n" = "n" + 100 WHERE "id" = 1`;
        throw Object.assign(new Error('simulated conflict'), { code: '40001' });
      },
      { maxAttempts: 3 },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransactionRetriesExhaustedError);
    expect((err as TransactionRetriesExhaustedError).attempts).toBe(3);
    expect(await readCounter()).toBe(start);
  });

  it('does not retry other errors', async () => {
    let attempts = 0;
    await expect(
      withTransaction(db.prisma, () => {
        attempts++;
        return Promise.reject(new Error('plain failure'));
      }),
    ).rejects.toThrow('plain failure');
    expect(attempts).toBe(1);
  });
});
