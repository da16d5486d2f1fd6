-- CreateEnum
CREATE TYPE "tournament_status" AS ENUM ('registering', 'running', 'finished', 'cancelled');

-- CreateEnum
CREATE TYPE "tournament_entry_status" AS ENUM ('registered', 'playing', 'finished', 'refunded');

-- AlterTable
ALTER TABLE "ledger_accounts" ADD COLUMN     "tournament_id" UUID;

-- AlterTable
ALTER TABLE "ledger_transactions" ADD COLUMN     "tournament_id" UUID;

-- CreateTable
CREATE TABLE "tournaments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "status" "tournament_status" NOT NULL DEFAULT 'registering',
    "config" JSONB NOT NULL,
    "created_by" UUID,
    "buy_in" BIGINT NOT NULL,
    "fee" BIGINT NOT NULL,
    "min_entrants" INTEGER NOT NULL,
    "max_entrants" INTEGER NOT NULL,
    "starts_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),

    CONSTRAINT "tournaments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tournament_entries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tournament_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "entry_no" INTEGER NOT NULL DEFAULT 1,
    "status" "tournament_entry_status" NOT NULL DEFAULT 'registered',
    "place" INTEGER,
    "prize" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "refunded_at" TIMESTAMPTZ(3),

    CONSTRAINT "tournament_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tournaments_status_starts_at_idx" ON "tournaments"("status", "starts_at");

-- CreateIndex
CREATE INDEX "tournaments_created_by_status_idx" ON "tournaments"("created_by", "status");

-- CreateIndex
CREATE INDEX "tournament_entries_tournament_id_status_idx" ON "tournament_entries"("tournament_id", "status");

-- CreateIndex
CREATE INDEX "tournament_entries_user_id_status_idx" ON "tournament_entries"("user_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "tournament_entries_tournament_id_user_id_entry_no_key" ON "tournament_entries"("tournament_id", "user_id", "entry_no");

-- CreateIndex
CREATE INDEX "ledger_accounts_tournament_id_idx" ON "ledger_accounts"("tournament_id");

-- CreateIndex
CREATE INDEX "ledger_transactions_tournament_id_idx" ON "ledger_transactions"("tournament_id");

-- AddForeignKey
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_entries" ADD CONSTRAINT "tournament_entries_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_entries" ADD CONSTRAINT "tournament_entries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The rules the database keeps itself (docs/dev/money-flows.md, "Tournaments").
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_shape";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_shape" CHECK (
  CASE "kind"
    WHEN 'wallet' THEN "user_id" IS NOT NULL AND "room_id" IS NULL AND "tournament_id" IS NULL
      AND "key" = 'wallet:' || "user_id"::text
    WHEN 'escrow' THEN "user_id" IS NOT NULL AND "room_id" IS NOT NULL AND "tournament_id" IS NULL
      AND "key" = 'escrow:' || "room_id"::text || ':' || "user_id"::text
    WHEN 'house_rake' THEN "user_id" IS NULL AND "room_id" IS NULL AND "tournament_id" IS NULL AND "key" = 'house_rake'
    WHEN 'grant_source' THEN "user_id" IS NULL AND "room_id" IS NULL AND "tournament_id" IS NULL AND "key" = 'grant_source'
    WHEN 'house_bankroll' THEN "user_id" IS NULL AND "room_id" IS NULL AND "tournament_id" IS NULL
      AND "key" = 'house_bankroll'
    WHEN 'tournament_pool' THEN "user_id" IS NULL AND "room_id" IS NULL AND "tournament_id" IS NOT NULL
      AND "key" = 'tournament_pool:' || "tournament_id"::text
    WHEN 'house_fee' THEN "user_id" IS NULL AND "room_id" IS NULL AND "tournament_id" IS NULL AND "key" = 'house_fee'
  END
);
INSERT INTO "ledger_accounts" ("key", "kind") VALUES ('house_fee', 'house_fee');

ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_shape" CHECK (
  "format" IN ('sit_and_go', 'scheduled')
  AND ("starts_at" IS NOT NULL) = ("format" = 'scheduled')
  AND "buy_in" >= 0 AND "fee" >= 0 AND "fee" <= "buy_in"
  AND "min_entrants" >= 2 AND "min_entrants" <= "max_entrants" AND "max_entrants" <= 1000
  AND length("name") BETWEEN 1 AND 60
);
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_lifecycle" CHECK (
  CASE "status"
    WHEN 'registering' THEN "started_at" IS NULL AND "finished_at" IS NULL AND "cancelled_at" IS NULL
    WHEN 'running' THEN "started_at" IS NOT NULL AND "finished_at" IS NULL AND "cancelled_at" IS NULL
    WHEN 'finished' THEN "started_at" IS NOT NULL AND "finished_at" IS NOT NULL AND "cancelled_at" IS NULL
    WHEN 'cancelled' THEN "started_at" IS NULL AND "finished_at" IS NULL AND "cancelled_at" IS NOT NULL
  END
);

ALTER TABLE "tournament_entries" ADD CONSTRAINT "tournament_entries_shape" CHECK (
  "entry_no" >= 1 AND "prize" >= 0
  AND ("status" = 'finished') = ("place" IS NOT NULL)
  AND ("status" = 'finished') = ("finished_at" IS NOT NULL)
  AND ("status" = 'refunded') = ("refunded_at" IS NOT NULL)
  AND ("place" IS NULL OR "place" >= 1)
  AND ("status" = 'finished' OR "prize" = 0)
);
-- A player holds one live entry per tournament at most: never registered twice, never at two tables.
CREATE UNIQUE INDEX "tournament_entries_one_live" ON "tournament_entries" ("tournament_id", "user_id")
  WHERE "status" IN ('registered', 'playing');
