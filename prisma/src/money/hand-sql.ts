import type pg from 'pg';
import type { TxClient } from '../client.js';
import type { LedgerTxKind, RoomStatus } from '../generated/enums.js';
import type { NormalizedHand } from './hand-record.js';
import type { LockedRoomRow } from './room-lock.js';

/*
 * The persister's hot statements, written as SQL. Prisma's query builder costs the persister far more
 * CPU per statement than Postgres spends running it (docs/architecture.md, "Where a hand's CPU goes"),
 * so a hand is read in one statement and written in one: every row travels as one JSON parameter
 * that `json_to_recordset` unpacks on the server. Every value is a bound parameter; nothing is
 * spliced into the SQL text. The statements run through Prisma inside its transactions
 * (`prismaSql`), or straight on a pg connection (`pgSql`): Prisma's raw-query path still costs about
 * four times pg's CPU per statement, so the persister's hot path uses pg. The ledger's rules still hold in the database: the entries' trigger
 * moves the balances, the deferred trigger checks each transaction sums to zero, the CHECKs keep
 * accounts from going below zero, and the history triggers keep the rows immutable.
 */

/** Runs one statement written as a tagged template: each `${value}` is a bound parameter. */
export type SqlRunner = <T = unknown>(strings: TemplateStringsArray, ...values: unknown[]) => Promise<T[]>;

/** Statements in a Prisma interactive transaction. */
export function prismaSql(tx: TxClient): SqlRunner {
  return <T>(strings: TemplateStringsArray, ...values: unknown[]) => tx.$queryRaw<T[]>(strings, ...values);
}

/** Statements on a pg connection: the template's parts joined by $1, $2, ... and the values bound to them. */
export function pgSql(client: pg.ClientBase): SqlRunner {
  return async <T>(strings: TemplateStringsArray, ...values: unknown[]) => {
    const text = strings.reduce((sql, part, i) => `${sql}$${i}${part}`);
    const result = await client.query<T & pg.QueryResultRow>({ text, values });
    return result.rows as T[];
  };
}

/**
 * Locks several rooms' rows in id order (so that two callers locking overlapping sets cannot
 * deadlock each other), for a transaction that writes hands of each. Rooms that do not exist are
 * missing from the map.
 */
export async function lockRoomRows(sql: SqlRunner, roomIds: readonly string[]): Promise<Map<string, LockedRoomRow>> {
  const ids = [...new Set(roomIds)];
  const rows = await sql<{
    id: string;
    status: RoomStatus;
    host_id: string;
    last_hand_no: number;
    owner_epoch: bigint | string;
    rebuilt_epoch: bigint | string;
    rebuilt_hand_no: number;
    practice: boolean;
  }>`
    SELECT "id"::text AS "id", "status"::text AS "status", "host_id"::text AS "host_id", "last_hand_no", "owner_epoch",
      "rebuilt_epoch", "rebuilt_hand_no", "practice"
    FROM "rooms" WHERE "id" = ANY(${ids}::uuid[]) ORDER BY "id" FOR UPDATE`;
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        status: row.status,
        hostId: row.host_id,
        lastHandNo: Number(row.last_hand_no),
        ownerEpoch: Number(row.owner_epoch),
        rebuiltEpoch: Number(row.rebuilt_epoch),
        rebuiltHandNo: Number(row.rebuilt_hand_no),
        practice: row.practice,
      },
    ]),
  );
}

/** A ledger account locked by readHandContexts. */
export interface LockedAccountRow {
  readonly id: string;
  readonly key: string;
  readonly balance: bigint;
}

/** A hand already in `hands`, with what a replay is compared against. */
export interface PersistedHandRow {
  readonly handId: string;
  readonly roomId: string;
  readonly handNo: number | null;
  readonly players: readonly { readonly seat: number; readonly userId: string; readonly finalStack: bigint }[];
}

/** A top-up of one of the rooms that still matters to a reconciliation. */
export interface TopUpRow {
  readonly id: string;
  readonly roomId: string;
  readonly userId: string;
  readonly status: string;
  readonly amount: bigint;
  readonly appliedAmount: bigint | null;
  readonly appliedHandNo: number | null;
}

export interface HandContexts {
  /** The accounts asked for that exist, locked in key order, with their balances. */
  readonly accounts: ReadonlyMap<string, LockedAccountRow>;
  /** Hands already persisted under one of the hand ids, by hand id. */
  readonly existing: ReadonlyMap<string, PersistedHandRow>;
  /** Names of the users that exist among those asked for, by id. */
  readonly userNames: ReadonlyMap<string, string>;
  /**
   * The rooms' top-ups that count in a reconciliation: pending ones, applied ones added after the
   * room's persisted hands, and the ones the hands report by id.
   */
  readonly topUps: readonly TopUpRow[];
  /** The rooms' pending cash-outs. */
  readonly pendingCashOuts: readonly {
    readonly roomId: string;
    readonly userId: string;
    readonly lastHandNo: number;
  }[];
}

interface ContextRow {
  accounts: { id: string; key: string; balance: string }[];
  existing: { hand_id: string; room_id: string; hand_no: number | null; players: PlayerJson[] }[];
  users: { id: string; name: string }[];
  top_ups: {
    id: string;
    room_id: string;
    user_id: string;
    status: string;
    amount: string;
    applied_amount: string | null;
    applied_hand_no: number | null;
  }[];
  cash_outs: { room_id: string; user_id: string; last_hand_no: number }[];
}

interface PlayerJson {
  seat: number;
  user_id: string;
  final_stack: string;
}

/**
 * One statement, run under the locks of every room concerned: locks the ledger accounts `keys`, and
 * the wallet and escrow of each top-up the hands report, in key order (the one lock order every
 * writer uses) and reads what persisting `hands` must check.
 * Accounts that do not exist are not created here: they are missing from `accounts`.
 */
export async function readHandContexts(
  sql: SqlRunner,
  hands: readonly NormalizedHand[],
  keys: readonly string[],
): Promise<HandContexts> {
  const sortedKeys = [...new Set(keys)].sort();
  const handIds = hands.map((h) => h.handId);
  const roomIds = [...new Set(hands.map((h) => h.roomId))];
  const userIds = [...new Set(hands.flatMap((h) => h.players.map((p) => p.userId)))];
  const reported = hands.flatMap((h) => h.topUps.map((t) => t.id));
  const rows = await sql<ContextRow>`
    WITH "acc" AS (
      SELECT "id"::text AS "id", "key", "balance"::text AS "balance"
      FROM "ledger_accounts"
      WHERE "key" = ANY(${sortedKeys}::text[])
        -- The wallets and escrows of the top-ups' owners: an excess goes back from one to the other
        -- (the practice wallet at a practice room: walletFor).
        OR "key" IN (SELECT k FROM "top_ups" t JOIN "rooms" tr ON tr."id" = t."room_id",
          LATERAL (VALUES ((CASE WHEN tr."practice" THEN 'practice:' ELSE 'wallet:' END) || t."user_id"::text),
            ('escrow:' || t."room_id"::text || ':' || t."user_id"::text)) AS v(k)
          WHERE t."id" = ANY(${reported}::uuid[]))
      ORDER BY "key" FOR UPDATE
    )
    SELECT
      (SELECT coalesce(json_agg("acc"), '[]'::json) FROM "acc") AS "accounts",
      (SELECT coalesce(json_agg(json_build_object(
          'hand_id', h."hand_id", 'room_id', h."room_id", 'hand_no', h."hand_no",
          'players', (SELECT coalesce(json_agg(json_build_object(
              'seat', p."seat", 'user_id', p."user_id", 'final_stack', p."final_stack"::text)), '[]'::json)
            FROM "hand_players" p WHERE p."hand_id" = h."hand_id" AND p."ended_at" = h."ended_at"))), '[]'::json)
        -- hand_ids names each hand's partition: one index probe per hand, not one per partition.
        FROM "hand_ids" k JOIN "hands" h ON h."hand_id" = k."hand_id" AND h."ended_at" = k."ended_at"
        WHERE k."hand_id" = ANY(${handIds}::text[])) AS "existing",
      (SELECT coalesce(json_agg(json_build_object('id', u."id", 'name', u."name")), '[]'::json)
        FROM "users" u WHERE u."id" = ANY(${userIds}::uuid[])) AS "users",
      (SELECT coalesce(json_agg(json_build_object(
          'id', t."id", 'room_id', t."room_id", 'user_id', t."user_id", 'status', t."status",
          'amount', t."amount"::text, 'applied_amount', t."applied_amount"::text,
          'applied_hand_no', t."applied_hand_no")), '[]'::json)
        FROM "top_ups" t JOIN "rooms" r ON r."id" = t."room_id"
        WHERE t."id" = ANY(${reported}::uuid[])
          OR (t."room_id" = ANY(${roomIds}::uuid[])
            AND (t."status" = 'pending' OR (t."status" = 'applied' AND t."applied_hand_no" > r."last_hand_no")))
      ) AS "top_ups",
      (SELECT coalesce(json_agg(json_build_object(
          'room_id', c."room_id", 'user_id', c."user_id", 'last_hand_no', c."last_hand_no")), '[]'::json)
        FROM "cash_outs" c WHERE c."room_id" = ANY(${roomIds}::uuid[]) AND c."status" = 'pending') AS "cash_outs"`;
  const row = rows[0];
  if (!row) throw new Error('readHandContexts returned no row');
  return {
    accounts: new Map(row.accounts.map((a) => [a.key, { id: a.id, key: a.key, balance: BigInt(a.balance) }])),
    existing: new Map(
      row.existing.map((h) => [
        h.hand_id,
        {
          handId: h.hand_id,
          roomId: h.room_id,
          handNo: h.hand_no,
          players: h.players.map((p) => ({ seat: p.seat, userId: p.user_id, finalStack: BigInt(p.final_stack) })),
        },
      ]),
    ),
    userNames: new Map(row.users.map((u) => [u.id, u.name])),
    topUps: row.top_ups.map((t) => ({
      id: t.id,
      roomId: t.room_id,
      userId: t.user_id,
      status: t.status,
      amount: BigInt(t.amount),
      appliedAmount: t.applied_amount === null ? null : BigInt(t.applied_amount),
      appliedHandNo: t.applied_hand_no,
    })),
    pendingCashOuts: row.cash_outs.map((c) => ({ roomId: c.room_id, userId: c.user_id, lastHandNo: c.last_hand_no })),
  };
}

/** One ledger transaction of a hand, its accounts already locked. */
export interface HandLedgerTx {
  readonly idempotencyKey: string;
  readonly kind: typeof LedgerTxKind.hand_result | typeof LedgerTxKind.rake | typeof LedgerTxKind.refund;
  readonly roomId: string;
  readonly handId: string | null;
  readonly memo: Record<string, unknown> | null;
  /** Merged per account, none zero, summing to zero. */
  readonly entries: readonly { readonly accountId: string; readonly accountKey: string; readonly amount: bigint }[];
}

/**
 * A hand ready to insert: the record, its players' names, its ledger transactions (the top-ups'
 * excess refunds among them), and the top-ups it reports, to be marked applied at its number.
 */
export interface HandInsert {
  readonly hand: NormalizedHand;
  readonly names: ReadonlyMap<string, string>;
  readonly ledger: readonly HandLedgerTx[];
}

const text = (n: bigint | null): string | null => (n === null ? null : n.toString());

/**
 * Inserts hands with everything they own in one statement: the `hands` rows, players, the operation
 * logs, the dealt cards, the pots, and the hands' ledger transactions with their entries; and marks
 * the top-ups they report applied (each must still be pending).
 */
export async function insertHands(sql: SqlRunner, inserts: readonly HandInsert[], now: Date): Promise<void> {
  if (inserts.length === 0) return;
  const hands = [];
  const players = [];
  const actions = [];
  const cards = [];
  const pots = [];
  const txs = [];
  const entries = [];
  const topUps = [];
  for (const { hand, names, ledger } of inserts) {
    for (const t of hand.topUps) {
      topUps.push({ id: t.id, applied: t.applied.toString(), hand_no: hand.handNo, settled_at: now.toISOString() });
    }
    const handId = hand.handId;
    const endedAt = hand.endedAt.toISOString();
    hands.push({
      hand_id: handId,
      room_id: hand.roomId,
      hand_no: hand.handNo,
      game: hand.game,
      limit: hand.limit,
      blinds: hand.blinds ?? {},
      started_at: hand.startedAt.toISOString(),
      ended_at: hand.endedAt.toISOString(),
      payload: hand.payload,
      button: hand.button,
      dealing: hand.dealing,
      // An engine-blind hand has no reveal material: null columns (the hands_dealing check).
      seed_commit: hand.seeds?.seedCommit ?? null,
      server_seed: hand.seeds?.serverSeed ?? null,
      client_seeds: hand.seeds?.clientSeeds ?? null,
      deck_seed: hand.seeds?.deckSeed ?? null,
      derivation: hand.seeds?.derivation ?? null,
      deck_kind: hand.seeds?.deckKind ?? null,
      board: hand.board,
      pot_total: hand.potTotal.toString(),
      rake: hand.rake.toString(),
    });
    for (const p of hand.players) {
      players.push({
        hand_id: handId,
        seat: p.seat,
        user_id: p.userId,
        name: p.name ?? names.get(p.userId) ?? '',
        starting_stack: p.startingStack.toString(),
        contributed: p.contributed.toString(),
        returned: p.returned.toString(),
        won: p.won.toString(),
        rake_paid: p.rakePaid.toString(),
        final_stack: p.finalStack.toString(),
        net: p.net.toString(),
        folded: p.folded,
        ended_at: hand.endedAt.toISOString(),
      });
    }
    for (const a of hand.actions) {
      actions.push({
        hand_id: handId,
        ended_at: endedAt,
        seq: a.seq,
        type: a.type,
        seat: a.seat,
        street: a.street,
        amount: text(a.amount),
        to_amount: text(a.to),
        all_in: a.allIn,
        timeout: a.timeout,
        data: a.data,
      });
    }
    for (const c of hand.cards) {
      cards.push({
        hand_id: handId,
        ended_at: endedAt,
        deck_index: c.deckIndex,
        card: c.card,
        kind: c.kind,
        seat: c.seat,
        street: c.street,
        face_up: c.faceUp,
      });
    }
    for (const p of hand.pots) {
      pots.push({
        hand_id: handId,
        ended_at: endedAt,
        pot_index: p.index,
        amount: p.amount.toString(),
        level_from: p.from.toString(),
        level_to: p.to.toString(),
        eligible: p.eligible,
        contested: p.contested,
        rake: p.rake.toString(),
        winners: p.winners,
      });
    }
    for (const t of ledger) {
      txs.push({
        idempotency_key: t.idempotencyKey,
        kind: t.kind,
        room_id: t.roomId,
        hand_id: t.handId,
        memo: t.memo,
      });
      for (const e of t.entries) {
        entries.push({
          entry_key: `${t.idempotencyKey}/${e.accountKey}`,
          tx_key: t.idempotencyKey,
          account_id: e.accountId,
          amount: e.amount.toString(),
        });
      }
    }
  }
  const doc = JSON.stringify({ hands, players, actions, cards, pots, txs, entries, top_ups: topUps });
  const [done] = await sql<{ top_ups: number }>`
    WITH "d" AS (SELECT ${doc}::json AS "j"),
    "h" AS (
      INSERT INTO "hands" ("hand_id", "room_id", "hand_no", "game", "limit", "blinds", "started_at", "ended_at",
        "payload", "button", "dealing", "seed_commit", "server_seed", "client_seeds", "deck_seed", "derivation",
        "deck_kind", "board", "pot_total", "rake")
      SELECT r.* FROM "d", json_to_recordset("d"."j"->'hands') AS r("hand_id" text, "room_id" uuid, "hand_no" int,
        "game" text, "limit" text, "blinds" jsonb, "started_at" timestamptz, "ended_at" timestamptz, "payload" json,
        "button" int, "dealing" text, "seed_commit" text, "server_seed" text, "client_seeds" jsonb, "deck_seed" text,
        "derivation" text, "deck_kind" text, "board" text[], "pot_total" bigint, "rake" bigint)
    ),
    "p" AS (
      INSERT INTO "hand_players" ("hand_id", "seat", "user_id", "name", "starting_stack", "contributed", "returned",
        "won", "rake_paid", "final_stack", "net", "folded", "ended_at")
      SELECT r.* FROM "d", json_to_recordset("d"."j"->'players') AS r("hand_id" text, "seat" int, "user_id" uuid,
        "name" text, "starting_stack" bigint, "contributed" bigint, "returned" bigint, "won" bigint,
        "rake_paid" bigint, "final_stack" bigint, "net" bigint, "folded" boolean, "ended_at" timestamptz)
    ),
    "a" AS (
      INSERT INTO "hand_actions" ("hand_id", "ended_at", "seq", "type", "seat", "street", "amount", "to_amount",
        "all_in", "timeout", "data")
      SELECT r.* FROM "d", json_to_recordset("d"."j"->'actions') AS r("hand_id" text, "ended_at" timestamptz,
        "seq" int, "type" text,
        "seat" int, "street" int, "amount" bigint, "to_amount" bigint, "all_in" boolean, "timeout" boolean,
        "data" jsonb)
    ),
    "c" AS (
      INSERT INTO "hand_cards" ("hand_id", "ended_at", "deck_index", "card", "kind", "seat", "street", "face_up")
      SELECT r.* FROM "d", json_to_recordset("d"."j"->'cards') AS r("hand_id" text, "ended_at" timestamptz,
        "deck_index" int,
        "card" text, "kind" text, "seat" int, "street" int, "face_up" boolean)
    ),
    "pt" AS (
      INSERT INTO "hand_pots" ("hand_id", "ended_at", "pot_index", "amount", "level_from", "level_to", "eligible",
        "contested", "rake", "winners")
      SELECT r.* FROM "d", json_to_recordset("d"."j"->'pots') AS r("hand_id" text, "ended_at" timestamptz,
        "pot_index" int,
        "amount" bigint, "level_from" bigint, "level_to" bigint, "eligible" int[], "contested" boolean,
        "rake" bigint, "winners" jsonb)
    ),
    "t" AS (
      INSERT INTO "ledger_transactions" ("idempotency_key", "kind", "room_id", "hand_id", "memo")
      SELECT r.* FROM "d", json_to_recordset("d"."j"->'txs') AS r("idempotency_key" text,
        "kind" "ledger_tx_kind", "room_id" uuid, "hand_id" text, "memo" jsonb)
      RETURNING "id", "idempotency_key"
    ),
    "e" AS (
      INSERT INTO "ledger_entries" ("entry_key", "transaction_id", "account_id", "amount")
      SELECT r."entry_key", "t"."id", r."account_id", r."amount"
      FROM "d" CROSS JOIN LATERAL json_to_recordset("d"."j"->'entries') AS r("entry_key" text, "tx_key" text,
        "account_id" uuid, "amount" bigint)
      JOIN "t" ON "t"."idempotency_key" = r."tx_key"
    ),
    "tu" AS (
      UPDATE "top_ups" AS t SET "status" = 'applied', "applied_amount" = r."applied", "applied_hand_no" = r."hand_no",
        "settled_at" = r."settled_at"
      FROM "d" CROSS JOIN LATERAL json_to_recordset("d"."j"->'top_ups') AS r("id" uuid, "applied" bigint,
        "hand_no" int, "settled_at" timestamptz)
      WHERE t."id" = r."id" AND t."status" = 'pending'
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM "tu")::int AS "top_ups"`;
  if (done?.top_ups !== topUps.length) {
    throw new Error(`${done?.top_ups ?? 0} of ${topUps.length} reported top-ups were still pending`);
  }
}

/**
 * Moves each room's hand cursor to the hand just written. A room's cursor moves one hand per
 * statement (the cursor trigger checks every step), so `moves` holds at most one per room.
 */
export async function advanceRoomCursors(
  sql: SqlRunner,
  moves: readonly { readonly roomId: string; readonly handNo: number }[],
  now: Date,
): Promise<void> {
  if (moves.length === 0) return;
  const doc = JSON.stringify(moves.map((m) => ({ id: m.roomId, n: m.handNo })));
  const changed = await sql`
    UPDATE "rooms" AS r SET "last_hand_no" = x."n", "updated_at" = ${now}::timestamptz
    FROM json_to_recordset(${doc}::json) AS x("id" uuid, "n" int)
    WHERE r."id" = x."id"
    RETURNING 1`;
  if (changed.length !== moves.length)
    throw new Error(`hand cursor moved for ${changed.length} of ${moves.length} rooms`);
}
