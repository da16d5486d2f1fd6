// isDatabaseUnavailable against a real Postgres where it can be made so (a server that is not there,
// a connection the server kills), and the shapes Prisma wraps those in.
import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/pg-error.js';

const ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const address = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

async function caught(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

describe('isDatabaseUnavailable', () => {
  it('a server that is not there: yes', async () => {
    const client = new pg.Client({
      connectionString: `postgresql://postgres@127.0.0.1:${await closedPort()}/postgres`,
    });
    const err = await caught(() => client.connect());
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it('a connection the server terminates: yes (57P01, then "Connection terminated")', async () => {
    const victim = new pg.Client({ connectionString: ADMIN_URL });
    victim.on('error', () => undefined);
    await victim.connect();
    const pid = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    const running = caught(() => victim.query('SELECT pg_sleep(10)'));
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.end();
    expect(isDatabaseUnavailable(await running)).toBe(true);
    expect(isDatabaseUnavailable(await caught(() => victim.query('SELECT 1')))).toBe(true);
    await victim.end().catch(() => undefined);
  });

  it('a statement the server refuses: no', async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      expect(isDatabaseUnavailable(await caught(() => client.query('SELECT * FROM no_such_table')))).toBe(false);
      expect(isDatabaseUnavailable(await caught(() => client.query('SELECT 1/0')))).toBe(false);
    } finally {
      await client.end();
    }
  });

  it('Prisma’s wrappings of an unreachable server: yes; of a unique violation: no', () => {
    expect(isDatabaseUnavailable({ code: 'P1001', message: "Can't reach database server at 127.0.0.1:1" })).toBe(true);
    expect(isDatabaseUnavailable({ code: 'P2024', message: 'Timed out fetching a new connection' })).toBe(true);
    expect(
      isDatabaseUnavailable({
        code: 'P2010',
        meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } },
      }),
    ).toBe(true);
    expect(
      isDatabaseUnavailable({ code: 'P2002', meta: { driverAdapterError: { cause: { originalCode: '23505' } } } }),
    ).toBe(false);
    expect(isDatabaseUnavailable(new Error('anything else'))).toBe(false);
  });
});
