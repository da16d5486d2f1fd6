-- CreateEnum
CREATE TYPE "room_status" AS ENUM ('open', 'closing', 'closed');

-- CreateEnum
CREATE TYPE "membership_status" AS ENUM ('active', 'left');

-- CreateEnum
CREATE TYPE "account_kind" AS ENUM ('wallet', 'escrow', 'house_rake', 'grant_source');

-- CreateEnum
CREATE TYPE "ledger_tx_kind" AS ENUM ('grant', 'buy_in', 'top_up', 'cash_out', 'refund', 'hand_result', 'rake');

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rooms" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "code" CHAR(6) NOT NULL,
    "status" "room_status" NOT NULL DEFAULT 'open',
    "config" JSONB NOT NULL,
    "is_public" BOOLEAN NOT NULL,
    "host_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closing_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "rooms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memberships" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "room_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "seat" INTEGER NOT NULL,
    "status" "membership_status" NOT NULL DEFAULT 'active',
    "buy_in" BIGINT NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "left_at" TIMESTAMPTZ(3),

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "key" TEXT NOT NULL,
    "kind" "account_kind" NOT NULL,
    "user_id" UUID,
    "room_id" UUID,
    "balance" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "wallets" (
    "user_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "ledger_transactions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "idempotency_key" TEXT NOT NULL,
    "kind" "ledger_tx_kind" NOT NULL,
    "room_id" UUID,
    "hand_id" TEXT,
    "memo" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "entry_key" TEXT NOT NULL,
    "transaction_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "hands" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "hand_id" TEXT NOT NULL,
    "room_id" UUID NOT NULL,
    "hand_no" INTEGER,
    "game" TEXT NOT NULL,
    "limit" TEXT NOT NULL,
    "blinds" JSONB NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "hands_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_name_key_key" ON "users"("name_key");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE INDEX "rooms_status_is_public_created_at_idx" ON "rooms"("status", "is_public", "created_at");

-- CreateIndex
CREATE INDEX "memberships_room_id_status_idx" ON "memberships"("room_id", "status");

-- CreateIndex
CREATE INDEX "memberships_user_id_status_idx" ON "memberships"("user_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_accounts_key_key" ON "ledger_accounts"("key");

-- CreateIndex
CREATE INDEX "ledger_accounts_room_id_idx" ON "ledger_accounts"("room_id");

-- CreateIndex
CREATE INDEX "ledger_accounts_user_id_idx" ON "ledger_accounts"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "wallets_account_id_key" ON "wallets"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_transactions_idempotency_key_key" ON "ledger_transactions"("idempotency_key");

-- CreateIndex
CREATE INDEX "ledger_transactions_room_id_idx" ON "ledger_transactions"("room_id");

-- CreateIndex
CREATE INDEX "ledger_transactions_hand_id_idx" ON "ledger_transactions"("hand_id");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_entry_key_key" ON "ledger_entries"("entry_key");

-- CreateIndex
CREATE INDEX "ledger_entries_transaction_id_idx" ON "ledger_entries"("transaction_id");

-- CreateIndex
CREATE INDEX "ledger_entries_account_id_idx" ON "ledger_entries"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "hands_hand_id_key" ON "hands"("hand_id");

-- CreateIndex
CREATE INDEX "hands_room_id_ended_at_idx" ON "hands"("room_id", "ended_at");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_host_id_fkey" FOREIGN KEY ("host_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "ledger_transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hands" ADD CONSTRAINT "hands_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ===========================================================================================
-- Hand-written below this line: invariants that Prisma's schema language cannot state.
-- Prisma does not introspect CHECK constraints, functions or triggers, so `migrate diff` ignores
-- them. It does see the partial unique indexes, and scripts/migrate.ts keeps it from dropping them
-- (see prisma/README.md). Custom SQLSTATEs (class FL) let the application map these refusals to
-- typed errors:
--   FL001 immutable ledger row, FL002 unbalanced transaction, FL003 direct balance write.
-- ===========================================================================================

-- Partial uniqueness ------------------------------------------------------------------------
-- A code identifies one live room; closed rooms free their code for reuse.
CREATE UNIQUE INDEX "rooms_code_live_key" ON "rooms" ("code") WHERE ("status" <> 'closed');
-- One active membership per (room, user) and per (room, seat); left rows are history.
CREATE UNIQUE INDEX "memberships_room_user_active_key" ON "memberships" ("room_id", "user_id") WHERE ("status" = 'active');
CREATE UNIQUE INDEX "memberships_room_seat_active_key" ON "memberships" ("room_id", "seat") WHERE ("status" = 'active');

-- Shapes ------------------------------------------------------------------------------------

ALTER TABLE "users" ADD CONSTRAINT "users_name_key_lower" CHECK ("name_key" = lower("name"));

ALTER TABLE "sessions" ADD CONSTRAINT "sessions_expiry_after_creation" CHECK ("expires_at" > "created_at");

ALTER TABLE "rooms" ADD CONSTRAINT "rooms_code_six_digits" CHECK ("code" ~ '^[0-9]{6}$');
-- The tombstone (status closing) records when deletion began; closed rooms record when it ended.
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_lifecycle_timestamps" CHECK (
  ("status" = 'open' AND "closing_at" IS NULL AND "closed_at" IS NULL)
  OR ("status" = 'closing' AND "closing_at" IS NOT NULL AND "closed_at" IS NULL)
  OR ("status" = 'closed' AND "closing_at" IS NOT NULL AND "closed_at" IS NOT NULL)
);

ALTER TABLE "memberships" ADD CONSTRAINT "memberships_seat_positive" CHECK ("seat" >= 1);
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_buy_in_nonnegative" CHECK ("buy_in" >= 0);
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_left_at_iff_left" CHECK (("status" = 'left') = ("left_at" IS NOT NULL));

-- Each account kind has exactly the owner columns its key names.
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_shape" CHECK (
  CASE "kind"
    WHEN 'wallet' THEN "user_id" IS NOT NULL AND "room_id" IS NULL AND "key" = 'wallet:' || "user_id"::text
    WHEN 'escrow' THEN "user_id" IS NOT NULL AND "room_id" IS NOT NULL
      AND "key" = 'escrow:' || "room_id"::text || ':' || "user_id"::text
    WHEN 'house_rake' THEN "user_id" IS NULL AND "room_id" IS NULL AND "key" = 'house_rake'
    WHEN 'grant_source' THEN "user_id" IS NULL AND "room_id" IS NULL AND "key" = 'grant_source'
  END
);
-- Wallets, escrows and the rake account never go negative. Only the grant source, where chips
-- enter the system, runs a deficit (its balance is minus the chips ever granted).
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_balance_nonnegative" CHECK ("kind" = 'grant_source' OR "balance" >= 0);

ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_amount_nonzero" CHECK ("amount" <> 0);

ALTER TABLE "hands" ADD CONSTRAINT "hands_ended_after_started" CHECK ("ended_at" >= "started_at");

-- The two system accounts exist from the start.
INSERT INTO "ledger_accounts" ("key", "kind") VALUES ('house_rake', 'house_rake'), ('grant_source', 'grant_source');

-- Immutability -------------------------------------------------------------------------------

CREATE FUNCTION felt_refuse_ledger_mutation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'felt: % on % is refused: ledger rows are immutable', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'FL001';
END
$$;

CREATE TRIGGER "ledger_entries_immutable" BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION felt_refuse_ledger_mutation();
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION felt_refuse_ledger_mutation();
CREATE TRIGGER "ledger_transactions_immutable" BEFORE UPDATE OR DELETE ON "ledger_transactions"
  FOR EACH ROW EXECUTE FUNCTION felt_refuse_ledger_mutation();
CREATE TRIGGER "ledger_transactions_no_truncate" BEFORE TRUNCATE ON "ledger_transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION felt_refuse_ledger_mutation();

-- Balances -----------------------------------------------------------------------------------
-- ledger_accounts.balance caches SUM(entries.amount). Only the entry trigger below may change it
-- (it runs at trigger depth 2 when it reaches the guard); a direct UPDATE is refused, an account
-- starts at zero, its identity never changes and it is never deleted. The UPDATE takes the
-- account's row lock, so concurrent postings serialise and the CHECK above sees every result.

CREATE FUNCTION felt_guard_ledger_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW."balance" <> 0 THEN
      RAISE EXCEPTION 'felt: account % must open at zero', NEW."key" USING ERRCODE = 'FL003';
    END IF;
    RETURN NEW;
  ELSIF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'felt: ledger account % cannot be deleted', OLD."key" USING ERRCODE = 'FL001';
  END IF;
  IF NEW."key" <> OLD."key" OR NEW."kind" <> OLD."kind"
     OR NEW."user_id" IS DISTINCT FROM OLD."user_id" OR NEW."room_id" IS DISTINCT FROM OLD."room_id" THEN
    RAISE EXCEPTION 'felt: ledger account % cannot change identity', OLD."key" USING ERRCODE = 'FL001';
  END IF;
  IF NEW."balance" <> OLD."balance" AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'felt: balance of % changes only through ledger entries', OLD."key" USING ERRCODE = 'FL003';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "ledger_accounts_guard" BEFORE INSERT OR UPDATE OR DELETE ON "ledger_accounts"
  FOR EACH ROW EXECUTE FUNCTION felt_guard_ledger_account();

CREATE FUNCTION felt_apply_ledger_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ledger_accounts" SET "balance" = "balance" + NEW."amount" WHERE "id" = NEW."account_id";
  RETURN NULL;
END
$$;

CREATE TRIGGER "ledger_entries_apply" AFTER INSERT ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION felt_apply_ledger_entry();

-- Double entry -------------------------------------------------------------------------------
-- Checked at COMMIT (deferred), so a transaction's entries can be inserted one by one. SET
-- CONSTRAINTS ... IMMEDIATE only makes the check stricter; it cannot skip it.

CREATE FUNCTION felt_check_ledger_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tx_id uuid;
  total numeric;
  n integer;
BEGIN
  -- Separate branches: PL/pgSQL resolves NEW's fields per statement, and each table has only one.
  IF TG_TABLE_NAME = 'ledger_entries' THEN
    tx_id := NEW."transaction_id";
  ELSE
    tx_id := NEW."id";
  END IF;
  SELECT coalesce(sum("amount"), 0), count(*) INTO total, n FROM "ledger_entries" WHERE "transaction_id" = tx_id;
  IF n < 2 THEN
    RAISE EXCEPTION 'felt: ledger transaction % has % entries; double entry needs at least 2', tx_id, n
      USING ERRCODE = 'FL002';
  END IF;
  IF total <> 0 THEN
    RAISE EXCEPTION 'felt: ledger transaction % is unbalanced: entries sum to %', tx_id, total
      USING ERRCODE = 'FL002';
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER "ledger_entries_balanced" AFTER INSERT ON "ledger_entries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION felt_check_ledger_transaction_balanced();
CREATE CONSTRAINT TRIGGER "ledger_transactions_balanced" AFTER INSERT ON "ledger_transactions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION felt_check_ledger_transaction_balanced();
