-- Hand history partitioned by month (docs/operations.md, "Hand history: partitions and retention").
--
-- `hands`, `hand_players`, `hand_actions`, `hand_cards` and `hand_pots` become
-- `PARTITION BY RANGE (ended_at)`, one partition per calendar month (UTC), named
-- `<table>_pYYYY_MM`. A month's rows can then be archived and dropped as a whole, and a read that
-- names a hand's `ended_at` touches one partition.
--
-- A partitioned table's keys must hold the partition key, so two guarantees that were unique
-- indexes of `hands` move to narrow unpartitioned tables, filled by a trigger in the same statement
-- that inserts the hand:
--   - `hand_ids (hand_id)`: one hand per id, whatever its ended_at (the persister's idempotency).
--     It also tells a lookup by hand id which partition holds the hand.
--   - `hand_numbers (room_id, hand_no)`: one hand per number in a room.
-- The children get `ended_at` (hand_players had it) and reference `hands (hand_id, ended_at)`.
-- `hands.id`, a surrogate nothing read, is gone: the key is (hand_id, ended_at).
--
-- There is no default partition: a row for a month without its partition is refused
-- (SQLSTATE 23514), and the writers create the month's partitions (felt_hand_partitions_ensure) before
-- they insert. The persister creates next month's ahead of time.
--
-- The data moves: the old tables are renamed, every row is copied into the new ones, and the old
-- tables are dropped, all in this migration's transaction. Writers wait on it; on a large install,
-- plan the downtime (docs/operations.md).

-- 1. The old tables step aside, with their constraints and indexes, so the names are free.
ALTER TABLE "hand_players" RENAME TO "hand_players_unpartitioned";
ALTER TABLE "hand_actions" RENAME TO "hand_actions_unpartitioned";
ALTER TABLE "hand_cards" RENAME TO "hand_cards_unpartitioned";
ALTER TABLE "hand_pots" RENAME TO "hand_pots_unpartitioned";
ALTER TABLE "hands" RENAME TO "hands_unpartitioned";
ALTER TABLE "hand_players_unpartitioned" RENAME CONSTRAINT "hand_players_pkey" TO "hand_players_unpartitioned_pkey";
ALTER TABLE "hand_players_unpartitioned" RENAME CONSTRAINT "hand_players_money" TO "hand_players_unpartitioned_money";
ALTER TABLE "hand_players_unpartitioned" RENAME CONSTRAINT "hand_players_seat_nonnegative" TO "hand_players_unpartitioned_seat";
ALTER TABLE "hand_players_unpartitioned" RENAME CONSTRAINT "hand_players_hand_id_fkey" TO "hand_players_unpartitioned_hand_fkey";
ALTER TABLE "hand_players_unpartitioned" RENAME CONSTRAINT "hand_players_user_id_fkey" TO "hand_players_unpartitioned_user_fkey";
ALTER INDEX "hand_players_hand_id_user_id_key" RENAME TO "hand_players_unpartitioned_user_key";
ALTER INDEX "hand_players_user_id_ended_at_idx" RENAME TO "hand_players_unpartitioned_user_idx";
ALTER TABLE "hand_actions_unpartitioned" RENAME CONSTRAINT "hand_actions_pkey" TO "hand_actions_unpartitioned_pkey";
ALTER TABLE "hand_actions_unpartitioned" RENAME CONSTRAINT "hand_actions_seq_nonnegative" TO "hand_actions_unpartitioned_seq";
ALTER TABLE "hand_actions_unpartitioned" RENAME CONSTRAINT "hand_actions_hand_id_fkey" TO "hand_actions_unpartitioned_hand_fkey";
ALTER TABLE "hand_cards_unpartitioned" RENAME CONSTRAINT "hand_cards_pkey" TO "hand_cards_unpartitioned_pkey";
ALTER TABLE "hand_cards_unpartitioned" RENAME CONSTRAINT "hand_cards_shape" TO "hand_cards_unpartitioned_shape";
ALTER TABLE "hand_cards_unpartitioned" RENAME CONSTRAINT "hand_cards_hand_id_fkey" TO "hand_cards_unpartitioned_hand_fkey";
ALTER TABLE "hand_pots_unpartitioned" RENAME CONSTRAINT "hand_pots_pkey" TO "hand_pots_unpartitioned_pkey";
ALTER TABLE "hand_pots_unpartitioned" RENAME CONSTRAINT "hand_pots_money" TO "hand_pots_unpartitioned_money";
ALTER TABLE "hand_pots_unpartitioned" RENAME CONSTRAINT "hand_pots_hand_id_fkey" TO "hand_pots_unpartitioned_hand_fkey";
ALTER TABLE "hands_unpartitioned" RENAME CONSTRAINT "hands_pkey" TO "hands_unpartitioned_pkey";
ALTER TABLE "hands_unpartitioned" RENAME CONSTRAINT "hands_dealing" TO "hands_unpartitioned_dealing";
ALTER TABLE "hands_unpartitioned" RENAME CONSTRAINT "hands_ended_after_started" TO "hands_unpartitioned_ended";
ALTER TABLE "hands_unpartitioned" RENAME CONSTRAINT "hands_hand_no_positive" TO "hands_unpartitioned_hand_no";
ALTER TABLE "hands_unpartitioned" RENAME CONSTRAINT "hands_money_nonnegative" TO "hands_unpartitioned_money";
ALTER TABLE "hands_unpartitioned" RENAME CONSTRAINT "hands_voided_unnumbered" TO "hands_unpartitioned_voided";
ALTER TABLE "hands_unpartitioned" RENAME CONSTRAINT "hands_room_id_fkey" TO "hands_unpartitioned_room_fkey";
ALTER INDEX "hands_hand_id_key" RENAME TO "hands_unpartitioned_hand_id_key";
ALTER INDEX "hands_room_id_ended_at_idx" RENAME TO "hands_unpartitioned_room_ended_idx";
ALTER INDEX "hands_room_id_hand_no_key" RENAME TO "hands_unpartitioned_room_hand_no_key";

-- 2. The global keys.
CREATE TABLE "hand_ids" (
    "hand_id" TEXT NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "hand_ids_pkey" PRIMARY KEY ("hand_id")
);

CREATE TABLE "hand_numbers" (
    "room_id" UUID NOT NULL,
    "hand_no" INTEGER NOT NULL,
    "hand_id" TEXT NOT NULL,

    CONSTRAINT "hand_numbers_pkey" PRIMARY KEY ("room_id","hand_no")
);

-- 3. The partitioned tables.
CREATE TABLE "hands" (
    "hand_id" TEXT NOT NULL,
    "room_id" UUID NOT NULL,
    "hand_no" INTEGER,
    "game" TEXT NOT NULL,
    "limit" TEXT NOT NULL,
    "blinds" JSONB NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,
    "payload" JSON NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "button" INTEGER,
    "dealing" TEXT NOT NULL DEFAULT 'standard',
    "seed_commit" TEXT,
    "server_seed" TEXT,
    "client_seeds" JSONB,
    "deck_seed" TEXT,
    "derivation" TEXT,
    "deck_kind" TEXT,
    "board" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "pot_total" BIGINT NOT NULL DEFAULT 0,
    "rake" BIGINT NOT NULL DEFAULT 0,
    "voided_reason" TEXT,

    CONSTRAINT "hands_pkey" PRIMARY KEY ("hand_id","ended_at"),
    CONSTRAINT "hands_dealing" CHECK (
      "dealing" IN ('standard', 'engine_blind')
      AND ("dealing" = 'standard' OR ("seed_commit" IS NULL AND "server_seed" IS NULL AND "client_seeds" IS NULL
        AND "deck_seed" IS NULL AND "derivation" IS NULL AND "deck_kind" IS NULL))),
    CONSTRAINT "hands_ended_after_started" CHECK ("ended_at" >= "started_at"),
    CONSTRAINT "hands_hand_no_positive" CHECK ("hand_no" IS NULL OR "hand_no" >= 1),
    CONSTRAINT "hands_money_nonnegative" CHECK ("pot_total" >= 0 AND "rake" >= 0 AND "rake" <= "pot_total"),
    CONSTRAINT "hands_voided_unnumbered" CHECK (
      "voided_reason" IS NULL OR ("hand_no" IS NULL AND "pot_total" = 0 AND "rake" = 0))
) PARTITION BY RANGE ("ended_at");

CREATE TABLE "hand_players" (
    "hand_id" TEXT NOT NULL,
    "seat" INTEGER NOT NULL,
    "user_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "starting_stack" BIGINT NOT NULL,
    "contributed" BIGINT NOT NULL,
    "returned" BIGINT NOT NULL,
    "won" BIGINT NOT NULL,
    "rake_paid" BIGINT NOT NULL,
    "final_stack" BIGINT NOT NULL,
    "net" BIGINT NOT NULL,
    "folded" BOOLEAN NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "hand_players_pkey" PRIMARY KEY ("hand_id","ended_at","seat"),
    CONSTRAINT "hand_players_money" CHECK (
      "starting_stack" > 0 AND "contributed" >= 0 AND "returned" >= 0 AND "won" >= 0 AND "rake_paid" >= 0
      AND "final_stack" >= 0 AND "final_stack" = "starting_stack" - "contributed" + "won"
      AND "net" = "final_stack" - "starting_stack"),
    CONSTRAINT "hand_players_seat_nonnegative" CHECK ("seat" >= 0)
) PARTITION BY RANGE ("ended_at");

CREATE TABLE "hand_actions" (
    "hand_id" TEXT NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "seat" INTEGER,
    "street" INTEGER,
    "amount" BIGINT,
    "to_amount" BIGINT,
    "all_in" BOOLEAN,
    "timeout" BOOLEAN NOT NULL DEFAULT false,
    "data" JSONB NOT NULL,

    CONSTRAINT "hand_actions_pkey" PRIMARY KEY ("hand_id","ended_at","seq"),
    CONSTRAINT "hand_actions_seq_nonnegative" CHECK ("seq" >= 0)
) PARTITION BY RANGE ("ended_at");

CREATE TABLE "hand_cards" (
    "hand_id" TEXT NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,
    "deck_index" INTEGER NOT NULL,
    "card" CHAR(2) NOT NULL,
    "kind" TEXT NOT NULL,
    "seat" INTEGER,
    "street" INTEGER NOT NULL,
    "face_up" BOOLEAN NOT NULL,

    CONSTRAINT "hand_cards_pkey" PRIMARY KEY ("hand_id","ended_at","deck_index"),
    CONSTRAINT "hand_cards_shape" CHECK (
      "deck_index" >= 0 AND "card" ~ '^[2-9TJQKA][cdhs]$' AND "kind" IN ('hole', 'board')
      AND ("kind" = 'hole') = ("seat" IS NOT NULL))
) PARTITION BY RANGE ("ended_at");

CREATE TABLE "hand_pots" (
    "hand_id" TEXT NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,
    "pot_index" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,
    "level_from" BIGINT NOT NULL,
    "level_to" BIGINT NOT NULL,
    "eligible" INTEGER[],
    "contested" BOOLEAN NOT NULL,
    "rake" BIGINT NOT NULL,
    "winners" JSONB NOT NULL,

    CONSTRAINT "hand_pots_pkey" PRIMARY KEY ("hand_id","ended_at","pot_index"),
    CONSTRAINT "hand_pots_money" CHECK (
      "amount" > 0 AND "rake" >= 0 AND "rake" <= "amount" AND "level_from" >= 0 AND "level_to" > "level_from")
) PARTITION BY RANGE ("ended_at");

CREATE INDEX "hands_room_id_ended_at_idx" ON "hands"("room_id", "ended_at");
CREATE INDEX "hands_room_id_hand_no_idx" ON "hands"("room_id", "hand_no");
CREATE UNIQUE INDEX "hand_players_hand_id_ended_at_user_id_key" ON "hand_players"("hand_id", "ended_at", "user_id");
CREATE INDEX "hand_players_user_id_ended_at_idx" ON "hand_players"("user_id", "ended_at");

ALTER TABLE "hands" ADD CONSTRAINT "hands_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "hand_players" ADD CONSTRAINT "hand_players_hand_id_ended_at_fkey" FOREIGN KEY ("hand_id", "ended_at") REFERENCES "hands"("hand_id", "ended_at") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "hand_players" ADD CONSTRAINT "hand_players_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "hand_actions" ADD CONSTRAINT "hand_actions_hand_id_ended_at_fkey" FOREIGN KEY ("hand_id", "ended_at") REFERENCES "hands"("hand_id", "ended_at") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "hand_cards" ADD CONSTRAINT "hand_cards_hand_id_ended_at_fkey" FOREIGN KEY ("hand_id", "ended_at") REFERENCES "hands"("hand_id", "ended_at") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "hand_pots" ADD CONSTRAINT "hand_pots_hand_id_ended_at_fkey" FOREIGN KEY ("hand_id", "ended_at") REFERENCES "hands"("hand_id", "ended_at") ON DELETE RESTRICT ON UPDATE CASCADE;

-- 4. A hand claims its id and its number in the same statement that inserts it. A second hand with
-- either fails there, with hand_ids_pkey or hand_numbers_pkey, whatever partition it would land in.
CREATE FUNCTION felt_claim_hand_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "hand_ids" ("hand_id", "ended_at") VALUES (NEW."hand_id", NEW."ended_at");
  IF NEW."hand_no" IS NOT NULL THEN
    INSERT INTO "hand_numbers" ("room_id", "hand_no", "hand_id") VALUES (NEW."room_id", NEW."hand_no", NEW."hand_id");
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "hands_claim_keys" BEFORE INSERT ON "hands"
  FOR EACH ROW EXECUTE FUNCTION felt_claim_hand_keys();

-- History stays immutable: the row triggers clone onto every partition; TRUNCATE triggers do not,
-- so felt_hand_partitions_ensure adds one to each partition it creates. The key tables are as
-- immutable, and outlive a month's partitions when a retention drop removes them
-- (`history:archive --drop`): a hand id or number once used stays used, and the audit tells an
-- archived hand (its key without its row) from a missing one.
CREATE TRIGGER "hands_immutable" BEFORE UPDATE OR DELETE ON "hands"
  FOR EACH ROW EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hands_no_truncate" BEFORE TRUNCATE ON "hands"
  FOR EACH STATEMENT EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_players_immutable" BEFORE UPDATE OR DELETE ON "hand_players"
  FOR EACH ROW EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_players_no_truncate" BEFORE TRUNCATE ON "hand_players"
  FOR EACH STATEMENT EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_actions_immutable" BEFORE UPDATE OR DELETE ON "hand_actions"
  FOR EACH ROW EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_actions_no_truncate" BEFORE TRUNCATE ON "hand_actions"
  FOR EACH STATEMENT EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_cards_immutable" BEFORE UPDATE OR DELETE ON "hand_cards"
  FOR EACH ROW EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_cards_no_truncate" BEFORE TRUNCATE ON "hand_cards"
  FOR EACH STATEMENT EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_pots_immutable" BEFORE UPDATE OR DELETE ON "hand_pots"
  FOR EACH ROW EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_pots_no_truncate" BEFORE TRUNCATE ON "hand_pots"
  FOR EACH STATEMENT EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_ids_immutable" BEFORE UPDATE OR DELETE ON "hand_ids"
  FOR EACH ROW EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_ids_no_truncate" BEFORE TRUNCATE ON "hand_ids"
  FOR EACH STATEMENT EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_numbers_immutable" BEFORE UPDATE OR DELETE ON "hand_numbers"
  FOR EACH ROW EXECUTE FUNCTION felt_refuse_history_mutation();
CREATE TRIGGER "hand_numbers_no_truncate" BEFORE TRUNCATE ON "hand_numbers"
  FOR EACH STATEMENT EXECUTE FUNCTION felt_refuse_history_mutation();

-- 5. Partitions. felt_hand_partitions_ensure(t) creates, if missing, the partitions of the calendar
-- month (UTC) holding t and of the month after, for the five tables. Idempotent, and serialised by an
-- advisory lock so that two writers creating the same month do not collide.
CREATE FUNCTION felt_hand_partitions_ensure(at TIMESTAMPTZ) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  first TIMESTAMP := date_trunc('month', at AT TIME ZONE 'UTC');
  month TIMESTAMP;
  part TEXT;
  parent TEXT;
BEGIN
  -- "felt hpt" as a big-endian int8.
  PERFORM pg_advisory_xact_lock(7378422810532491380);
  FOREACH month IN ARRAY ARRAY[first, first + interval '1 month'] LOOP
    FOREACH parent IN ARRAY ARRAY['hands', 'hand_players', 'hand_actions', 'hand_cards', 'hand_pots'] LOOP
      part := parent || to_char(month, '"_p"YYYY"_"MM');
      IF to_regclass(format('%I', part)) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', part, parent,
          month AT TIME ZONE 'UTC', (month + interval '1 month') AT TIME ZONE 'UTC');
        EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT '
          'EXECUTE FUNCTION felt_refuse_history_mutation()', part || '_no_truncate', part);
      END IF;
    END LOOP;
  END LOOP;
END
$$;

-- 6. The rows move: partitions for every month the old rows span, and the current one.
SELECT felt_hand_partitions_ensure(m)
FROM generate_series(
  date_trunc('month', coalesce((SELECT min("ended_at") FROM "hands_unpartitioned"), now())),
  now(), interval '1 month') AS m;
SELECT felt_hand_partitions_ensure(now());

INSERT INTO "hands" ("hand_id", "room_id", "hand_no", "game", "limit", "blinds", "started_at", "ended_at",
  "payload", "created_at", "button", "dealing", "seed_commit", "server_seed", "client_seeds", "deck_seed",
  "derivation", "deck_kind", "board", "pot_total", "rake", "voided_reason")
SELECT "hand_id", "room_id", "hand_no", "game", "limit", "blinds", "started_at", "ended_at",
  "payload", "created_at", "button", "dealing", "seed_commit", "server_seed", "client_seeds", "deck_seed",
  "derivation", "deck_kind", "board", "pot_total", "rake", "voided_reason"
FROM "hands_unpartitioned";

INSERT INTO "hand_players" ("hand_id", "seat", "user_id", "name", "starting_stack", "contributed", "returned",
  "won", "rake_paid", "final_stack", "net", "folded", "ended_at")
SELECT "hand_id", "seat", "user_id", "name", "starting_stack", "contributed", "returned",
  "won", "rake_paid", "final_stack", "net", "folded", "ended_at"
FROM "hand_players_unpartitioned";

INSERT INTO "hand_actions" ("hand_id", "ended_at", "seq", "type", "seat", "street", "amount", "to_amount",
  "all_in", "timeout", "data")
SELECT a."hand_id", h."ended_at", a."seq", a."type", a."seat", a."street", a."amount", a."to_amount",
  a."all_in", a."timeout", a."data"
FROM "hand_actions_unpartitioned" a JOIN "hands_unpartitioned" h ON h."hand_id" = a."hand_id";

INSERT INTO "hand_cards" ("hand_id", "ended_at", "deck_index", "card", "kind", "seat", "street", "face_up")
SELECT c."hand_id", h."ended_at", c."deck_index", c."card", c."kind", c."seat", c."street", c."face_up"
FROM "hand_cards_unpartitioned" c JOIN "hands_unpartitioned" h ON h."hand_id" = c."hand_id";

INSERT INTO "hand_pots" ("hand_id", "ended_at", "pot_index", "amount", "level_from", "level_to", "eligible",
  "contested", "rake", "winners")
SELECT o."hand_id", h."ended_at", o."pot_index", o."amount", o."level_from", o."level_to", o."eligible",
  o."contested", o."rake", o."winners"
FROM "hand_pots_unpartitioned" o JOIN "hands_unpartitioned" h ON h."hand_id" = o."hand_id";

-- 7. The old tables go (DROP is not a row mutation: their immutability triggers go with them).
DROP TABLE "hand_players_unpartitioned", "hand_actions_unpartitioned", "hand_cards_unpartitioned",
  "hand_pots_unpartitioned", "hands_unpartitioned";
