import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, Ledger, walletAccount, type TestDatabase } from '@felt/db';

/**
 * The database's own defences, exercised with raw SQL that skips every application check: they
 * must hold even for code that talks to Postgres directly.
 */
let db: TestDatabase;
let client: pg.Client;
let userId: string;
let otherId: string;

async function sqlState(sql: string, params: unknown[] = []): Promise<string | undefined> {
  try {
    await client.query(sql, params);
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

/** Runs statements in one transaction; returns the SQLSTATE that stopped it (COMMIT included). */
async function inTransaction(statements: (string | [string, unknown[]])[]): Promise<string | undefined> {
  await client.query('BEGIN');
  try {
    for (const s of statements) {
      if (typeof s === 'string') await client.query(s);
      else await client.query(s[0], s[1]);
    }
    await client.query('COMMIT');
    return undefined;
  } catch (err) {
    await client.query('ROLLBACK');
    return (err as { code?: string }).code;
  }
}

async function accountId(key: string): Promise<string> {
  const r = await client.query<{ id: string }>('SELECT id FROM ledger_accounts WHERE key = $1', [key]);
  return r.rows[0]!.id;
}

async function balance(key: string): Promise<bigint> {
  const r = await client.query<{ balance: string }>('SELECT balance FROM ledger_accounts WHERE key = $1', [key]);
  return BigInt(r.rows[0]!.balance);
}

beforeAll(async () => {
  db = await createTestDatabase();
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const users = await Promise.all(
    ['Alice', 'Bob'].map((name) =>
      db.prisma.user.create({ data: { name, nameKey: name.toLowerCase(), passwordHash: 'x' } }),
    ),
  );
  userId = users[0]!.id;
  otherId = users[1]!.id;
  const ledger = new Ledger(db.prisma);
  await ledger.grant({ userId, amount: 1000n, idempotencyKey: 'grant:alice' });
  await ledger.grant({ userId: otherId, amount: 10n, idempotencyKey: 'grant:bob' });
});

afterAll(async () => {
  await client.end();
  await db.drop();
});

describe('ledger entries and transactions are immutable', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of entries', async () => {
    expect(await sqlState('UPDATE ledger_entries SET amount = amount * 2')).toBe('FL001');
    expect(await sqlState('DELETE FROM ledger_entries')).toBe('FL001');
    expect(await sqlState('TRUNCATE ledger_entries CASCADE')).toBe('FL001');
    const n = await client.query<{ n: string }>('SELECT count(*) AS n FROM ledger_entries');
    expect(Number(n.rows[0]!.n)).toBe(4);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of transactions', async () => {
    expect(await sqlState("UPDATE ledger_transactions SET idempotency_key = 'other'")).toBe('FL001');
    expect(await sqlState('DELETE FROM ledger_transactions')).toBe('FL001');
    expect(await sqlState('TRUNCATE ledger_transactions CASCADE')).toBe('FL001');
  });

  it('refuses direct writes to a balance, and deleting or re-keying an account', async () => {
    const key = `wallet:${userId}`;
    expect(await sqlState('UPDATE ledger_accounts SET balance = balance + 1000000 WHERE key = $1', [key])).toBe(
      'FL003',
    );
    expect(await sqlState("UPDATE ledger_accounts SET key = 'x' WHERE key = $1", [key])).toBe('FL001');
    expect(await sqlState('DELETE FROM ledger_accounts WHERE key = $1', [key])).toBe('FL001');
    expect(
      await sqlState(`INSERT INTO ledger_accounts (key, kind, user_id, balance) VALUES ($1, 'wallet', $2, 5)`, [
        `wallet:${otherId}x`,
        otherId,
      ]),
    ).toBe('FL003');
    expect(await balance(key)).toBe(1000n);
  });
});

describe('double entry is enforced at commit', () => {
  it('refuses a transaction whose entries do not sum to zero, and keeps balances', async () => {
    const wallet = await accountId(`wallet:${userId}`);
    const source = await accountId('grant_source');
    const state = await inTransaction([
      "INSERT INTO ledger_transactions (id, idempotency_key, kind) VALUES ('11111111-1111-4111-8111-111111111111', 'bad:1', 'grant')",
      [
        "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('bad:1/a', '11111111-1111-4111-8111-111111111111', $1, 500)",
        [wallet],
      ],
      [
        "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('bad:1/b', '11111111-1111-4111-8111-111111111111', $1, -499)",
        [source],
      ],
    ]);
    expect(state).toBe('FL002');
    expect(await balance(`wallet:${userId}`)).toBe(1000n);
  });

  it('refuses a transaction with a single entry and one with none', async () => {
    const source = await accountId('grant_source');
    expect(
      await inTransaction([
        "INSERT INTO ledger_transactions (id, idempotency_key, kind) VALUES ('22222222-2222-4222-8222-222222222222', 'bad:2', 'grant')",
        [
          "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('bad:2/a', '22222222-2222-4222-8222-222222222222', $1, 5)",
          [source],
        ],
      ]),
    ).toBe('FL002');
    expect(
      await inTransaction(["INSERT INTO ledger_transactions (idempotency_key, kind) VALUES ('bad:3', 'grant')"]),
    ).toBe('FL002');
  });

  it('refuses adding an entry to an already balanced transaction later', async () => {
    const tx = await client.query<{ id: string }>(
      "SELECT id FROM ledger_transactions WHERE idempotency_key = 'grant:alice'",
    );
    const wallet = await accountId(`wallet:${userId}`);
    const state = await inTransaction([
      [
        "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('late/a', $1, $2, 1)",
        [tx.rows[0]!.id, wallet],
      ],
    ]);
    expect(state).toBe('FL002');
  });

  it('accepts a balanced transaction written by hand, and applies it to the balances', async () => {
    const alice = await accountId(`wallet:${userId}`);
    const bob = await accountId(`wallet:${otherId}`);
    const state = await inTransaction([
      "INSERT INTO ledger_transactions (id, idempotency_key, kind) VALUES ('33333333-3333-4333-8333-333333333333', 'ok:1', 'hand_result')",
      [
        "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('ok:1/a', '33333333-3333-4333-8333-333333333333', $1, -5)",
        [alice],
      ],
      [
        "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('ok:1/b', '33333333-3333-4333-8333-333333333333', $1, 5)",
        [bob],
      ],
    ]);
    expect(state).toBeUndefined();
    expect(await balance(`wallet:${userId}`)).toBe(995n);
    expect(await balance(`wallet:${otherId}`)).toBe(15n);
    expect(await db.prisma.ledgerAccount.findUnique({ where: { key: `wallet:${otherId}` } })).toMatchObject({
      balance: 15n,
    });
  });

  it('refuses a balanced transaction that takes a wallet below zero (CHECK), changing nothing', async () => {
    const bob = await accountId(`wallet:${otherId}`);
    const alice = await accountId(`wallet:${userId}`);
    const state = await inTransaction([
      "INSERT INTO ledger_transactions (id, idempotency_key, kind) VALUES ('44444444-4444-4444-8444-444444444444', 'over:1', 'hand_result')",
      [
        "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('over:1/a', '44444444-4444-4444-8444-444444444444', $1, 100)",
        [alice],
      ],
      [
        "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('over:1/b', '44444444-4444-4444-8444-444444444444', $1, -100)",
        [bob],
      ],
    ]);
    expect(state).toBe('23514');
    expect(await balance(`wallet:${otherId}`)).toBe(15n);
    expect(await balance(`wallet:${userId}`)).toBe(995n);
  });

  it('refuses a zero-amount entry and an entry key used twice', async () => {
    const alice = await accountId(`wallet:${userId}`);
    const tx = await client.query<{ id: string }>("SELECT id FROM ledger_transactions WHERE idempotency_key = 'ok:1'");
    expect(
      await sqlState(
        "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('zero', $1, $2, 0)",
        [tx.rows[0]!.id, alice],
      ),
    ).toBe('23514');
    expect(
      await sqlState(
        "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('ok:1/a', $1, $2, 1)",
        [tx.rows[0]!.id, alice],
      ),
    ).toBe('23505');
  });

  it('holds the account shapes: a wallet key must name its user', async () => {
    expect(
      await sqlState("INSERT INTO ledger_accounts (key, kind, user_id) VALUES ('wallet:someone-else', 'wallet', $1)", [
        userId,
      ]),
    ).toBe('23514');
    expect(await sqlState("INSERT INTO ledger_accounts (key, kind) VALUES ('grant_source', 'grant_source')")).toBe(
      '23505',
    );
  });

  it('keeps SET CONSTRAINTS IMMEDIATE from skipping the check (it only checks sooner)', async () => {
    const source = await accountId('grant_source');
    const wallet = await accountId(`wallet:${otherId}`);
    const state = await inTransaction([
      'SET CONSTRAINTS ALL IMMEDIATE',
      "INSERT INTO ledger_transactions (id, idempotency_key, kind) VALUES ('55555555-5555-4555-8555-555555555555', 'imm:1', 'grant')",
      [
        "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('imm:1/a', '55555555-5555-4555-8555-555555555555', $1, 7)",
        [wallet],
      ],
      [
        "INSERT INTO ledger_entries (entry_key, transaction_id, account_id, amount) VALUES ('imm:1/b', '55555555-5555-4555-8555-555555555555', $1, -7)",
        [source],
      ],
    ]);
    expect(state).toBe('FL002');
    expect(await balance(`wallet:${otherId}`)).toBe(15n);
    expect(await new Ledger(db.prisma).balance(walletAccount(otherId))).toBe(15n);
  });
});
