import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { SeededRng } from '@felt/engine';
import { createTestDatabase, type TestDatabase } from '@felt/db';
import { closeRedis, createRedis, type Redis, redisKeys } from '@felt/platform';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom, directSink } from './money/fixtures.js';
import { SimTable } from './money/sim-table.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const script = fileURLToPath(new URL('../scripts/audit.ts', import.meta.url));

/** `npm run audit` as an operator runs it: its summary line, its violations and its exit code. */
function audit(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, lines: out.trim().split('\n') }));
  });
}

describe('npm run audit', () => {
  const prefix = `t${randomBytes(5).toString('hex')}:`;
  let db: TestDatabase;
  let redis: Redis;
  let table: SimTable;
  let roomId: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = createRedis(REDIS_URL, { name: 'audit-test' });
    env = { DATABASE_URL: db.url, REDIS_URL, FELT_REDIS_PREFIX: prefix, FELT_HANDS_QUEUE: 'hands' };
    const room = await createRoom(db.prisma, [
      { name: 'a', buyIn: 150 },
      { name: 'b', buyIn: 180 },
      { name: 'c', buyIn: 200 },
    ]);
    roomId = room.roomId;
    table = await SimTable.load(db.prisma, roomId, directSink(db.prisma), new SeededRng('audit'));
    for (let i = 0; i < 8; i++) await table.playHand();
    // The table's checkpoint, with the money section the spec asks workers to keep in it.
    await redis.set(
      redisKeys(prefix).tableCheckpoint(roomId),
      JSON.stringify({ version: 1, tableId: roomId, money: table.liveMoney() }),
    );
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await closeRedis(redis);
    await db.drop();
  });

  it('refuses a Redis of the older key layout, saying so, instead of finding every live table missing', async () => {
    const old = `t${randomBytes(5).toString('hex')}:`;
    await redis.set(`${old}revocations:loaded`, new Date().toISOString());
    try {
      const r = await audit({ ...env, FELT_REDIS_PREFIX: old });
      expect(r.code).toBe(2);
      expect(r.lines.join('\n')).toMatch(
        /AUDIT could not run: Redis holds keys of the older key layout.*redis:migrate/,
      );
      // A reader never writes the layout.
      expect(await redis.exists(redisKeys(old).layout)).toBe(0);
    } finally {
      await redis.del(`${old}revocations:loaded`);
    }
  });

  it('passes a consistent system and prints the summary line', async () => {
    const r = await audit(env);
    expect(r.lines[0]).toMatch(/^AUDIT ok=true transactions=\d+ hands=8 wallets=3 imbalance=0 issues=0$/);
    expect(r.code).toBe(0);
    expect(r.lines.filter((l) => l.startsWith('ISSUE'))).toEqual([]);
  });

  it('flags a live stack that does not match the escrow', async () => {
    const money = table.liveMoney();
    money.seats[0]!.stack += 7;
    await redis.set(redisKeys(prefix).tableCheckpoint(roomId), JSON.stringify({ version: 1, tableId: roomId, money }));
    const r = await audit(env);
    expect(r.code).toBe(1);
    expect(r.lines[0]).toMatch(/^AUDIT ok=false .* imbalance=0 issues=1$/);
    expect(r.lines.filter((l) => l.startsWith('ISSUE'))).toEqual([
      expect.stringMatching(/^ISSUE live_stack_mismatch: /),
    ]);
    await redis.set(
      redisKeys(prefix).tableCheckpoint(roomId),
      JSON.stringify({ version: 1, tableId: roomId, money: table.liveMoney() }),
    );
  });

  it('lists every violation when the database was tampered with behind the triggers', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      // Only a superuser can do this: it switches off the triggers that guard the ledger.
      await client.query("SET LOCAL session_replication_role = 'replica'");
      const hand = await client.query<{ hand_id: string }>('SELECT hand_id FROM hands ORDER BY hand_no LIMIT 1');
      const handId = hand.rows[0]!.hand_id;
      // A chip created in a wallet: drift, and the system no longer balances.
      await client.query(
        `UPDATE ledger_accounts SET balance = balance + 5 WHERE kind = 'wallet' AND key = (SELECT min(key) FROM ledger_accounts WHERE kind = 'wallet')`,
      );
      // A one-sided entry (its balance trigger is off too, so the escrow's cache drifts from its entries).
      await client.query(`
        WITH t AS (INSERT INTO ledger_transactions (idempotency_key, kind) VALUES ('forged', 'grant') RETURNING id)
        INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount)
        SELECT 'forged/x', t.id, a.id, 3 FROM t, ledger_accounts a WHERE a.kind = 'escrow' ORDER BY a.key LIMIT 1`);
      // A hand whose winner is paid one chip too many.
      await client.query(
        `UPDATE hand_players SET won = won + 1, final_stack = final_stack + 1, net = net + 1
        WHERE hand_id = $1 AND seat = (SELECT min(seat) FROM hand_players WHERE hand_id = $1)`,
        [handId],
      );
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    const r = await audit(env);
    expect(r.code).toBe(1);
    const issues = r.lines.filter((l) => l.startsWith('ISSUE')).map((l) => l.split(':')[0]);
    expect(r.lines[0]).toMatch(/^AUDIT ok=false transactions=\d+ hands=8 wallets=3 imbalance=5 issues=\d+$/);
    expect(Number(/issues=(\d+)/.exec(r.lines[0]!)![1])).toBe(issues.length);
    for (const code of [
      'ISSUE unbalanced_transaction',
      'ISSUE balance_drift',
      'ISSUE system_imbalance',
      'ISSUE escrow_mismatch',
      'ISSUE hand_unbalanced',
      'ISSUE hand_ledger_mismatch',
    ]) {
      expect(issues).toContain(code);
    }
  });
});
