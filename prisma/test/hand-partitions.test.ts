// Hand history partitioned by month (migration 20261231090000_hand_history_partitions): the upgrade
// moves every existing hand into the monthly partitions with its rows, and the keys a partitioned
// table cannot hold (one hand per id, one per number in a room) still hold across months.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, migrate, MIGRATIONS_DIR, readMigrations, type TestDatabase } from '../src/index.js';

const PARTITIONS = '20261231090000_hand_history_partitions';

let db: TestDatabase;
let before: string;
let client: pg.Client;

beforeAll(async () => {
  // A database as the release before partitions left it.
  before = mkdtempSync(join(tmpdir(), 'felt-migrations-'));
  for (const m of readMigrations()) {
    if (m.name >= PARTITIONS) continue;
    cpSync(join(MIGRATIONS_DIR, m.name), join(before, m.name), { recursive: true });
  }
  db = await createTestDatabase({ migrationsDir: before });
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await db?.drop();
  rmSync(before, { recursive: true, force: true });
});

const q = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
  (await client.query<T>(sql, values)).rows;

describe('the monthly partitions migration', () => {
  it('moves hands of several months with their players, actions, cards and pots, and keeps the keys', async () => {
    const [user] = await q<{ id: string }>(
      `INSERT INTO users (name, name_key, password_hash) VALUES ('mig', 'mig', 'x') RETURNING id::text`,
    );
    const [room] = await q<{ id: string }>(
      `INSERT INTO rooms (code, config, is_public, host_id) VALUES ('123456', '{}', false, $1) RETURNING id::text`,
      [user!.id],
    );
    const hands = [
      { id: 'old-1', no: 1, ended: '2025-10-31T23:59:59.999Z' },
      { id: 'old-2', no: 2, ended: '2025-11-01T00:00:00.000Z' },
      { id: 'old-3', no: null, ended: '2026-02-14T12:00:00.000Z' },
    ];
    for (const h of hands) {
      await q(
        `INSERT INTO hands (hand_id, room_id, hand_no, game, "limit", blinds, started_at, ended_at, payload,
           pot_total, rake, voided_reason)
         VALUES ($1, $2, $3, 'holdem', 'nl', '{}', $4, $4, '{"kept": true}', $5, 0, $6)`,
        [h.id, room!.id, h.no, h.ended, h.no === null ? 0 : 3, h.no === null ? 'checkpoint_lost' : null],
      );
      await q(
        `INSERT INTO hand_players (hand_id, seat, user_id, name, starting_stack, contributed, returned, won,
           rake_paid, final_stack, net, folded, ended_at)
         VALUES ($1, 1, $2, 'mig', 100, 0, 0, 0, 0, 100, 0, false, $3)`,
        [h.id, user!.id, h.ended],
      );
      if (h.no === null) continue;
      await q(`INSERT INTO hand_actions (hand_id, seq, type, data) VALUES ($1, 0, 'post', '{}')`, [h.id]);
      await q(
        `INSERT INTO hand_cards (hand_id, deck_index, card, kind, seat, street, face_up)
         VALUES ($1, 0, 'As', 'hole', 1, 0, false)`,
        [h.id],
      );
      await q(
        `INSERT INTO hand_pots (hand_id, pot_index, amount, level_from, level_to, eligible, contested, rake, winners)
         VALUES ($1, 0, 3, 0, 2, '{1}', false, 0, '[]')`,
        [h.id],
      );
    }

    expect((await migrate(db.url)).applied).toEqual([PARTITIONS]);

    // Every row is in the partition of its hand's month, the children carrying the hand's ended_at.
    const placed = await q<{ table: string; hand_id: string; ended_at: Date }>(
      `SELECT tableoid::regclass::text AS "table", hand_id, ended_at FROM hands ORDER BY hand_id`,
    );
    expect(placed.map((r) => [r.table, r.hand_id])).toEqual([
      ['hands_p2025_10', 'old-1'],
      ['hands_p2025_11', 'old-2'],
      ['hands_p2026_02', 'old-3'],
    ]);
    for (const t of ['hand_actions', 'hand_cards', 'hand_pots', 'hand_players']) {
      const rows = await q<{ table: string; hand_id: string; ended_at: Date }>(
        `SELECT tableoid::regclass::text AS "table", hand_id, ended_at FROM ${t} ORDER BY hand_id`,
      );
      for (const r of rows) {
        const hand = hands.find((h) => h.id === r.hand_id)!;
        expect(r.ended_at.toISOString()).toBe(hand.ended);
        expect(r.table).toBe(`${t}_p${hand.ended.slice(0, 4)}_${hand.ended.slice(5, 7)}`);
      }
      expect(rows.length).toBe(t === 'hand_players' ? 3 : 2);
    }
    expect((await q<{ payload: unknown }>(`SELECT payload FROM hands WHERE hand_id = 'old-1'`))[0]!.payload).toEqual({
      kept: true,
    });
    expect(await q(`SELECT hand_id, ended_at FROM hand_ids ORDER BY hand_id`)).toEqual(
      hands.map((h) => ({ hand_id: h.id, ended_at: new Date(h.ended) })),
    );
    expect(await q(`SELECT hand_no, hand_id FROM hand_numbers ORDER BY hand_no`)).toEqual([
      { hand_no: 1, hand_id: 'old-1' },
      { hand_no: 2, hand_id: 'old-2' },
    ]);
    // The old tables are gone; the current month's and the next month's partitions exist.
    expect(await q(`SELECT to_regclass('hands_unpartitioned') AS r`)).toEqual([{ r: null }]);
    const month = new Date().toISOString().slice(0, 7).replace('-', '_');
    expect(await q(`SELECT to_regclass($1)::text AS r`, [`hand_pots_p${month}`])).toEqual([
      { r: `hand_pots_p${month}` },
    ]);

    // A hand id is unique across months, a number across months in its room.
    const insert = (id: string, no: number | null, ended: string) =>
      q(
        `INSERT INTO hands (hand_id, room_id, hand_no, game, "limit", blinds, started_at, ended_at, payload)
         VALUES ($1, $2, $3, 'holdem', 'nl', '{}', $4, $4, '{}')`,
        [id, room!.id, no, ended],
      );
    await expect(insert('old-1', null, '2026-02-01T00:00:00.000Z')).rejects.toMatchObject({
      code: '23505',
      constraint: 'hand_ids_pkey',
    });
    await expect(insert('new-1', 2, '2026-02-01T00:00:00.000Z')).rejects.toMatchObject({
      code: '23505',
      constraint: 'hand_numbers_pkey',
    });
    // A month without partitions is refused until felt_hand_partitions_ensure makes them.
    await expect(insert('new-2', 3, '2019-05-01T00:00:00.000Z')).rejects.toMatchObject({ code: '23514' });
    await q(`SELECT felt_hand_partitions_ensure('2019-05-01T00:00:00Z')`);
    await insert('new-2', 3, '2019-05-01T00:00:00.000Z');
    expect(await q(`SELECT to_regclass('hands_p2019_06')::text AS r`)).toEqual([{ r: 'hands_p2019_06' }]);

    // History stays immutable, on the parent, on a partition and on the keys.
    for (const sql of [
      `DELETE FROM hands WHERE hand_id = 'old-1'`,
      `UPDATE hand_players_p2025_10 SET name = 'x'`,
      `TRUNCATE hands_p2025_10 CASCADE`,
      `DELETE FROM hand_ids`,
      `TRUNCATE hand_numbers`,
    ]) {
      await expect(q(sql), sql).rejects.toMatchObject({ code: 'FL004' });
    }
  });
});
