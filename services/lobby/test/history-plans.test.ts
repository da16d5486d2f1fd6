// Every query the lobby's hand history and the persister's hand writes run on the hand tables uses an
// index, on a database seeded with 1,000,000 hands (2,000,000 player rows; 100,000 hands with their
// cards, actions and pots). The queries are not listed here: they are captured as the code runs them
// (every statement through `pg`, Prisma's included), then each one that reads a hand table is planned
// with EXPLAIN and its plan searched for a sequential scan of one of them.
import { createPgPool, normalizeHandJob, persistHands, persistVoidedHand } from '@felt/db';
import { SeededRng } from '@felt/engine';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directSink } from '../../../test/money/fixtures.js';
import { SimTable, type HandJob } from '../../../test/money/sim-table.js';
import { startHarness, type Client, type Harness } from './harness.js';

const HAND_TABLES = ['hands', 'hand_players', 'hand_actions', 'hand_cards', 'hand_pots'];
const SEEDED_HANDS = 1_000_000;
const DETAILED_HANDS = 100_000;
/** A partition under this many rows may be read sequentially (a few pages). Every seeded month holds about 43,000. */
const SMALL_PARTITION_ROWS = 1_000;

interface Captured {
  readonly text: string;
  readonly values: readonly unknown[];
}

let h: Harness;
let players: (Client & { id: string; name: string })[];
let roomId: string;
let table: SimTable;
const held: HandJob[] = [];
let holding = false;
let captured: Captured[] = [];
let capturing = false;
// Kept unbound on purpose: the capture calls it with each client as `this`, and afterAll puts it back.
// eslint-disable-next-line @typescript-eslint/unbound-method
const originalQuery = pg.Client.prototype.query;

beforeAll(async () => {
  h = await startHarness();
  players = [await h.user(), await h.user()];
  const created = await players[0]!.post<{ session_id: string; code: string }>('/api/rooms', {
    config: { game: 'holdem', stakes: { smallBlind: 1, bigBlind: 2 } },
    sit: { buy_in: 200 },
  });
  roomId = created.body.session_id;
  await players[1]!.post('/api/rooms/join', { code: created.body.code, buy_in: 200 });
  const direct = directSink(h.db.prisma);
  const sink = {
    ...direct,
    hand: (job: HandJob) => (holding ? Promise.resolve(void held.push(job)) : direct.hand(job)),
  };
  table = await SimTable.load(h.db.prisma, roomId, sink, new SeededRng('plans'));
  for (let i = 0; i < 3; i++) await table.playHand();

  // The bulk: another room of the same two players with a million older hands.
  const other = await players[0]!.post<{ session_id: string }>('/api/rooms', {
    config: { game: 'holdem', stakes: { smallBlind: 1, bigBlind: 2 } },
  });
  const seedRoom = other.body.session_id;
  const [a, b] = [players[0]!.id, players[1]!.id];
  // One connection, loading as a bulk loader would: triggers and foreign-key checks off
  // (session_replication_role), so the hands' global keys (hand_ids, hand_numbers, which the insert
  // trigger writes for the persister) are loaded by their own statements. This test reads plans; the
  // trigger has tests of its own (prisma/test/hand-partitions.test.ts).
  const seed = new pg.Client({ connectionString: h.db.url });
  await seed.connect();
  // Their months' partitions (about 23 of them), as the persister would have made them.
  await seed.query(`
    SELECT felt_hand_partitions_ensure(m)
    FROM generate_series(timestamptz '2020-01-01', timestamptz '2020-01-01' + ${SEEDED_HANDS} * interval '1 minute',
      interval '1 month') AS m`);
  await seed.query(`SET session_replication_role = replica`);
  await seed.query(`
    INSERT INTO "hand_ids" ("hand_id", "ended_at")
    SELECT 'seed-' || g, timestamptz '2020-01-01' + g * interval '1 minute' FROM generate_series(1, ${SEEDED_HANDS}) g`);
  await seed.query(`
    INSERT INTO "hand_numbers" ("room_id", "hand_no", "hand_id")
    SELECT '${seedRoom}'::uuid, g, 'seed-' || g FROM generate_series(1, ${SEEDED_HANDS}) g`);
  await seed.query(`
    INSERT INTO "hands" ("hand_id", "room_id", "hand_no", "game", "limit", "blinds", "started_at", "ended_at",
      "payload", "pot_total", "rake")
    SELECT 'seed-' || g, '${seedRoom}'::uuid, g, 'holdem', 'nl', '{"sb":1,"bb":2}'::jsonb,
      timestamptz '2020-01-01' + g * interval '1 minute', timestamptz '2020-01-01' + g * interval '1 minute',
      '{}'::json, 3, 0
    FROM generate_series(1, ${SEEDED_HANDS}) g`);
  await seed.query(`
    INSERT INTO "hand_players" ("hand_id", "seat", "user_id", "name", "starting_stack", "contributed", "returned",
      "won", "rake_paid", "final_stack", "net", "folded", "ended_at")
    SELECT 'seed-' || g, s.seat, s.uid, 'seed', 100, 0, 0, 0, 0, 100, 0, false,
      timestamptz '2020-01-01' + g * interval '1 minute'
    FROM generate_series(1, ${SEEDED_HANDS}) g, (VALUES (1, '${a}'::uuid), (2, '${b}'::uuid)) AS s(seat, uid)`);
  await seed.query(`
    INSERT INTO "hand_cards" ("hand_id", "ended_at", "deck_index", "card", "kind", "seat", "street", "face_up")
    SELECT 'seed-' || g, timestamptz '2020-01-01' + g * interval '1 minute', c.i, c.card, 'hole', c.seat, 0, false
    FROM generate_series(1, ${DETAILED_HANDS}) g,
      (VALUES (0, 'As', 1), (1, 'Kd', 2), (2, 'Qh', 1), (3, 'Jc', 2)) AS c(i, card, seat)`);
  await seed.query(`
    INSERT INTO "hand_actions" ("hand_id", "ended_at", "seq", "type", "seat", "street", "amount", "data")
    SELECT 'seed-' || g, timestamptz '2020-01-01' + g * interval '1 minute', a.seq, 'post', a.seat, 0, a.amount, '{}'::json
    FROM generate_series(1, ${DETAILED_HANDS}) g, (VALUES (0, 1, 1), (1, 2, 2)) AS a(seq, seat, amount)`);
  await seed.query(`
    INSERT INTO "hand_pots" ("hand_id", "ended_at", "pot_index", "amount", "level_from", "level_to", "eligible",
      "contested", "rake", "winners")
    SELECT 'seed-' || g, timestamptz '2020-01-01' + g * interval '1 minute', 0, 3, 0, 2, '{1,2}', false, 0, '[]'::json
    FROM generate_series(1, ${DETAILED_HANDS}) g`);
  await seed.query(`SET session_replication_role = origin`);
  await seed.query('ANALYZE');
  await seed.end();

  // Hands played from now on wait for the persister's batch path (below, captured).
  holding = true;
  for (let i = 0; i < 3; i++) await table.playHand();

  pg.Client.prototype.query = function capture(this: pg.Client, ...args: unknown[]) {
    if (capturing) {
      const first = args[0] as string | { text: string; values?: unknown[] };
      const text = typeof first === 'string' ? first : first.text;
      const values =
        typeof first === 'string' ? ((Array.isArray(args[1]) ? args[1] : []) as unknown[]) : (first.values ?? []);
      captured.push({ text, values });
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
}, 600_000);

afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await h?.close();
});

/** Captures every statement `run` makes. */
async function capture(run: () => Promise<unknown>): Promise<Captured[]> {
  captured = [];
  capturing = true;
  try {
    await run();
  } finally {
    capturing = false;
  }
  return captured;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** The hand table a relation is, or is a monthly partition of (`hands_p2020_01` is `hands`). */
function handTableOf(relation: string | undefined): string | undefined {
  const table = relation?.replace(/_p\d{4}_\d{2}$/, '');
  return table !== undefined && HAND_TABLES.includes(table) ? table : undefined;
}

/**
 * Hand-table relations the plan reads sequentially, leaving out partitions too small for an index to
 * pay (this month's, holding the few hands played here: the planner rightly reads a page or two).
 */
function seqScans(node: PlanNode, small: ReadonlySet<string>): string[] {
  const relation = node['Relation Name'];
  const here = node['Node Type'] === 'Seq Scan' && handTableOf(relation) && !small.has(relation!) ? [relation!] : [];
  return [...here, ...(node.Plans ?? []).flatMap((n) => seqScans(n, small))];
}

/** Every hand-table relation the plan reads (partitions by their own names). */
function relations(node: PlanNode): string[] {
  const here = handTableOf(node['Relation Name']) ? [node['Relation Name']!] : [];
  return [...here, ...(node.Plans ?? []).flatMap(relations)];
}

/** The hand tables a plan reads from more than one partition of, with those partitions. */
function unpruned(node: PlanNode): string[] {
  const byTable = new Map<string, Set<string>>();
  for (const r of relations(node)) {
    const table = handTableOf(r)!;
    byTable.set(table, (byTable.get(table) ?? new Set()).add(r));
  }
  return [...byTable]
    .filter(([, parts]) => parts.size > 1)
    .map(([table, parts]) => `${table}: ${[...parts].join(' ')}`);
}

interface Planned {
  readonly sql: string;
  readonly seqScans: string[];
  readonly unpruned: string[];
}

/** Each captured statement that reads a hand table, with the hand tables its plan scans in full. */
async function plans(statements: readonly Captured[]): Promise<Planned[]> {
  const readsHands = (s: string) =>
    /^\s*(WITH|SELECT|UPDATE|DELETE)/i.test(s) &&
    HAND_TABLES.some((t) => new RegExp(`"?(public"\\.)?"?${t}"?\\b`).test(s));
  const client = new pg.Client({ connectionString: h.db.url });
  await client.connect();
  try {
    await client.query(`ANALYZE ${HAND_TABLES.join(', ')}`);
    const sizes = await client.query<{ relname: string }>(
      `SELECT relname FROM pg_class WHERE relkind = 'r' AND reltuples < ${SMALL_PARTITION_ROWS}`,
    );
    const small = new Set(sizes.rows.map((r) => r.relname));
    const out: Planned[] = [];
    for (const s of statements.filter((x) => readsHands(x.text))) {
      const res = (await client.query(`EXPLAIN (FORMAT JSON) ${s.text}`, s.values as unknown[])) as {
        rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[];
      };
      const plan = res.rows[0]!['QUERY PLAN'];
      out.push({
        sql: s.text.replace(/\s+/g, ' ').slice(0, 160),
        seqScans: seqScans(plan[0]!.Plan, small),
        unpruned: unpruned(plan[0]!.Plan),
      });
    }
    return out;
  } finally {
    await client.end();
  }
}

describe('every hand-table query uses an index (1,000,000 hands)', () => {
  it('the history API: the list and its next page, a hand, its reveal, OHH and PHH', { timeout: 120_000 }, async () => {
    const p = players[0]!;
    const real = await p.get<{ hands: { hand_id: string }[]; next: string | null }>('/api/hands?page_size=2');
    const handId = real.body.hands[0]!.hand_id;
    const statements = await capture(async () => {
      const first = await p.get<{ next: string }>('/api/hands?page_size=20');
      expect(first.status).toBe(200);
      expect((await p.get(`/api/hands?page_size=20&cursor=${first.body.next}`)).status).toBe(200);
      for (const path of ['', '/reveal', '/ohh', '/phh'])
        expect((await p.get(`/api/hands/${handId}${path}`)).status).toBe(200);
      expect((await p.get('/api/hands/seed-500000')).status).toBe(200);
    });
    const planned = await plans(statements);
    expect(planned.length).toBeGreaterThanOrEqual(6);
    expect(planned.filter((x) => x.seqScans.length > 0)).toEqual([]);
  });

  it('a hand read by its id reads one partition of each hand table', { timeout: 120_000 }, async () => {
    const p = players[0]!;
    const statements = await capture(async () => {
      // One of the seeded hands, in a month with 23 others beside it.
      expect((await p.get('/api/hands/seed-500000')).status).toBe(200);
      expect((await p.get('/api/hands/seed-1')).status).toBe(200);
    });
    const planned = await plans(statements);
    expect(planned.length).toBeGreaterThanOrEqual(2);
    expect(planned.filter((x) => x.unpruned.length > 0)).toEqual([]);
  });

  it('the persister: a batch of hands, the same batch again, a voided hand', { timeout: 120_000 }, async () => {
    const pool = createPgPool(h.db.url, { max: 2 });
    try {
      const hands = held.map((job) => normalizeHandJob(job));
      const statements = await capture(async () => {
        const first = await persistHands(h.db.prisma, hands, { pool });
        expect(first.map((o) => (o.ok ? o.result.result : o.error))).toEqual(hands.map(() => 'written'));
        const again = await persistHands(h.db.prisma, hands, { pool });
        expect(again.map((o) => (o.ok ? o.result.result : o.error))).toEqual(hands.map(() => 'duplicate'));
        await persistVoidedHand(h.db.prisma, {
          kind: 'voided',
          hand_id: '0f0e0d0c-0b0a-4909-8807-060504030201',
          room_id: roomId,
          reason: 'checkpoint_lost',
          voided_at: new Date().toISOString(),
          players: players.map((u, i) => ({ seat: i + 1, user_id: u.id, name: u.name, stack: 100 })),
        });
      });
      const planned = await plans(statements);
      expect(planned.length).toBeGreaterThanOrEqual(2);
      expect(planned.filter((x) => x.seqScans.length > 0)).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
