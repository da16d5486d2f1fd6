-- CreateEnum
CREATE TYPE "top_up_status" AS ENUM ('pending', 'applied', 'cashed_out');

-- CreateEnum
CREATE TYPE "cash_out_reason" AS ENUM ('leave', 'room_close');

-- CreateEnum
CREATE TYPE "cash_out_status" AS ENUM ('pending', 'paid', 'mismatch');

-- AlterTable
ALTER TABLE "hands" ADD COLUMN     "board" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "button" INTEGER,
ADD COLUMN     "client_seeds" JSONB,
ADD COLUMN     "deck_kind" TEXT,
ADD COLUMN     "deck_seed" TEXT,
ADD COLUMN     "derivation" TEXT,
ADD COLUMN     "pot_total" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "rake" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "seed_commit" TEXT,
ADD COLUMN     "server_seed" TEXT;

-- AlterTable
ALTER TABLE "memberships" ADD COLUMN     "joined_after_hand" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "leave_requested_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "rooms" ADD COLUMN     "last_hand_no" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
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

    CONSTRAINT "hand_players_pkey" PRIMARY KEY ("hand_id","seat")
);

-- CreateTable
CREATE TABLE "hand_actions" (
    "hand_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "seat" INTEGER,
    "street" INTEGER,
    "amount" BIGINT,
    "to_amount" BIGINT,
    "all_in" BOOLEAN,
    "timeout" BOOLEAN NOT NULL DEFAULT false,
    "data" JSONB NOT NULL,

    CONSTRAINT "hand_actions_pkey" PRIMARY KEY ("hand_id","seq")
);

-- CreateTable
CREATE TABLE "hand_cards" (
    "hand_id" TEXT NOT NULL,
    "deck_index" INTEGER NOT NULL,
    "card" CHAR(2) NOT NULL,
    "kind" TEXT NOT NULL,
    "seat" INTEGER,
    "street" INTEGER NOT NULL,
    "face_up" BOOLEAN NOT NULL,

    CONSTRAINT "hand_cards_pkey" PRIMARY KEY ("hand_id","deck_index")
);

-- CreateTable
CREATE TABLE "hand_pots" (
    "hand_id" TEXT NOT NULL,
    "pot_index" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,
    "level_from" BIGINT NOT NULL,
    "level_to" BIGINT NOT NULL,
    "eligible" INTEGER[],
    "contested" BOOLEAN NOT NULL,
    "rake" BIGINT NOT NULL,
    "winners" JSONB NOT NULL,

    CONSTRAINT "hand_pots_pkey" PRIMARY KEY ("hand_id","pot_index")
);

-- CreateTable
CREATE TABLE "top_ups" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "idempotency_key" TEXT NOT NULL,
    "room_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "membership_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "status" "top_up_status" NOT NULL DEFAULT 'pending',
    "applied_amount" BIGINT,
    "applied_hand_no" INTEGER,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "top_ups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cash_outs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "request_id" TEXT NOT NULL,
    "room_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "membership_id" UUID,
    "reason" "cash_out_reason" NOT NULL,
    "last_hand_no" INTEGER NOT NULL,
    "final_stack" BIGINT NOT NULL,
    "status" "cash_out_status" NOT NULL DEFAULT 'pending',
    "escrow_found" BIGINT,
    "paid_amount" BIGINT,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "cash_outs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "money_incidents" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "kind" TEXT NOT NULL,
    "room_id" UUID,
    "user_id" UUID,
    "hand_id" TEXT,
    "request_id" TEXT,
    "details" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),

    CONSTRAINT "money_incidents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "hand_players_user_id_ended_at_idx" ON "hand_players"("user_id", "ended_at");

-- CreateIndex
CREATE UNIQUE INDEX "hand_players_hand_id_user_id_key" ON "hand_players"("hand_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "top_ups_idempotency_key_key" ON "top_ups"("idempotency_key");

-- CreateIndex
CREATE INDEX "top_ups_room_id_status_idx" ON "top_ups"("room_id", "status");

-- CreateIndex
CREATE INDEX "top_ups_membership_id_idx" ON "top_ups"("membership_id");

-- CreateIndex
CREATE UNIQUE INDEX "cash_outs_request_id_key" ON "cash_outs"("request_id");

-- CreateIndex
CREATE INDEX "cash_outs_room_id_status_idx" ON "cash_outs"("room_id", "status");

-- CreateIndex
CREATE INDEX "cash_outs_user_id_status_idx" ON "cash_outs"("user_id", "status");

-- CreateIndex
CREATE INDEX "money_incidents_resolved_at_idx" ON "money_incidents"("resolved_at");

-- CreateIndex
CREATE UNIQUE INDEX "hands_room_id_hand_no_key" ON "hands"("room_id", "hand_no");

-- AddForeignKey
ALTER TABLE "hand_players" ADD CONSTRAINT "hand_players_hand_id_fkey" FOREIGN KEY ("hand_id") REFERENCES "hands"("hand_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hand_players" ADD CONSTRAINT "hand_players_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hand_actions" ADD CONSTRAINT "hand_actions_hand_id_fkey" FOREIGN KEY ("hand_id") REFERENCES "hands"("hand_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hand_cards" ADD CONSTRAINT "hand_cards_hand_id_fkey" FOREIGN KEY ("hand_id") REFERENCES "hands"("hand_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hand_pots" ADD CONSTRAINT "hand_pots_hand_id_fkey" FOREIGN KEY ("hand_id") REFERENCES "hands"("hand_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_membership_id_fkey" FOREIGN KEY ("membership_id") REFERENCES "memberships"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cash_outs" ADD CONSTRAINT "cash_outs_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cash_outs" ADD CONSTRAINT "cash_outs_membership_id_fkey" FOREIGN KEY ("membership_id") REFERENCES "memberships"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- ===========================================================================================
-- Hand-written below this line (see the init migration for why). Issue 7: money and history.
--   FL004 immutable hand history row.
-- ===========================================================================================

-- One open cash-out per player and room: a player cannot sit down again at a room while the
-- chips of their last seat there are still on their way back (escrow is per room and player).
CREATE UNIQUE INDEX "cash_outs_room_user_pending_key" ON "cash_outs" ("room_id", "user_id") WHERE ("status" = 'pending');

-- Shapes ------------------------------------------------------------------------------------

ALTER TABLE "rooms" ADD CONSTRAINT "rooms_last_hand_no_nonnegative" CHECK ("last_hand_no" >= 0);
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_joined_after_hand_nonnegative" CHECK ("joined_after_hand" >= 0);
ALTER TABLE "hands" ADD CONSTRAINT "hands_hand_no_positive" CHECK ("hand_no" IS NULL OR "hand_no" >= 1);
ALTER TABLE "hands" ADD CONSTRAINT "hands_money_nonnegative" CHECK ("pot_total" >= 0 AND "rake" >= 0 AND "rake" <= "pot_total");

-- A hand player's numbers must add up: final = start - contributed + won, net = final - start.
ALTER TABLE "hand_players" ADD CONSTRAINT "hand_players_money" CHECK (
  "starting_stack" > 0 AND "contributed" >= 0 AND "returned" >= 0 AND "won" >= 0 AND "rake_paid" >= 0
  AND "final_stack" >= 0
  AND "final_stack" = "starting_stack" - "contributed" + "won"
  AND "net" = "final_stack" - "starting_stack"
);
ALTER TABLE "hand_players" ADD CONSTRAINT "hand_players_seat_nonnegative" CHECK ("seat" >= 0);
ALTER TABLE "hand_actions" ADD CONSTRAINT "hand_actions_seq_nonnegative" CHECK ("seq" >= 0);
ALTER TABLE "hand_cards" ADD CONSTRAINT "hand_cards_shape" CHECK (
  "deck_index" >= 0 AND "card" ~ '^[2-9TJQKA][cdhs]$' AND "kind" IN ('hole', 'board')
  AND (("kind" = 'hole') = ("seat" IS NOT NULL))
);
ALTER TABLE "hand_pots" ADD CONSTRAINT "hand_pots_money" CHECK (
  "amount" > 0 AND "rake" >= 0 AND "rake" <= "amount" AND "level_from" >= 0 AND "level_to" > "level_from"
);

ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_amount_positive" CHECK ("amount" > 0);
-- A pending top-up has no outcome yet; an applied one says how much the table added, at most the
-- amount paid in (the rest went back to the wallet).
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_outcome" CHECK (
  CASE "status"
    WHEN 'pending' THEN "applied_amount" IS NULL AND "settled_at" IS NULL
    WHEN 'applied' THEN "applied_amount" IS NOT NULL AND "applied_amount" >= 0 AND "applied_amount" <= "amount"
      AND "settled_at" IS NOT NULL
    WHEN 'cashed_out' THEN "applied_amount" IS NULL AND "settled_at" IS NOT NULL
  END
);

ALTER TABLE "cash_outs" ADD CONSTRAINT "cash_outs_shape" CHECK (
  "final_stack" >= 0 AND "last_hand_no" >= 0
  AND (("status" = 'pending') = ("settled_at" IS NULL))
  AND (("status" = 'paid') = ("paid_amount" IS NOT NULL))
  AND ("paid_amount" IS NULL OR "paid_amount" >= 0)
);

-- Immutability of hand history -----------------------------------------------------------------
-- A persisted hand is a fact: its rows are written once, in the persister's transaction.

CREATE FUNCTION felt_refuse_history_mutation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'felt: % on % is refused: hand history is immutable', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'FL004';
END
$$;

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

-- The hand cursor only moves forward, one hand at a time, and only to a hand that exists: the
-- persister writes hands of a room strictly in order, so a cash-out that waits for hand N knows
-- that every hand up to N is in.
CREATE FUNCTION felt_check_room_hand_cursor() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."last_hand_no" = OLD."last_hand_no" THEN
    RETURN NEW;
  END IF;
  IF NEW."last_hand_no" <> OLD."last_hand_no" + 1 THEN
    RAISE EXCEPTION 'felt: room % hand cursor may only advance by one (% -> %)', OLD."id", OLD."last_hand_no", NEW."last_hand_no"
      USING ERRCODE = 'FL005';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "hands" WHERE "room_id" = NEW."id" AND "hand_no" = NEW."last_hand_no") THEN
    RAISE EXCEPTION 'felt: room % hand cursor moved to hand % that is not persisted', OLD."id", NEW."last_hand_no"
      USING ERRCODE = 'FL005';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "rooms_hand_cursor" BEFORE UPDATE OF "last_hand_no" ON "rooms"
  FOR EACH ROW EXECUTE FUNCTION felt_check_room_hand_cursor();
