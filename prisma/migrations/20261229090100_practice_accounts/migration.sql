-- Practice chips, continued: the room flag, the two account kinds' shapes, and the rule that keeps
-- practice chips and real chips apart in the database itself.
--   FL006 practice and real chips would meet (a ledger transaction mixing them, a room changing kind).

-- AlterTable
ALTER TABLE "rooms" ADD COLUMN     "practice" BOOLEAN NOT NULL DEFAULT false;

-- Each account kind has exactly the owner columns its key names.
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
    WHEN 'practice_wallet' THEN "user_id" IS NOT NULL AND "room_id" IS NULL AND "tournament_id" IS NULL
      AND "key" = 'practice:' || "user_id"::text
    WHEN 'practice_source' THEN "user_id" IS NULL AND "room_id" IS NULL AND "tournament_id" IS NULL
      AND "key" = 'practice_source'
  END
);
-- The two sources run a deficit: minus the chips of their kind ever handed out. Every other account
-- stays at zero or above.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_balance_nonnegative";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_balance_nonnegative"
  CHECK ("kind" IN ('grant_source', 'practice_source') OR "balance" >= 0);
INSERT INTO "ledger_accounts" ("key", "kind") VALUES ('practice_source', 'practice_source');

-- A room is a practice room or not for its whole life: its escrows' chips are of one kind.
CREATE FUNCTION felt_keep_room_practice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."practice" <> OLD."practice" THEN
    RAISE EXCEPTION 'felt: room % cannot change between practice and real chips', OLD."id"
      USING ERRCODE = 'FL006';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "rooms_practice_fixed" BEFORE UPDATE OF "practice" ON "rooms"
  FOR EACH ROW EXECUTE FUNCTION felt_keep_room_practice();

-- Practice chips and real chips never meet. A practice account is a practice wallet, the practice
-- source, or an escrow at a practice room; every other account holds real chips. A ledger
-- transaction's entries are all practice or all real: so no practice chip reaches a real wallet, the
-- rake or the bankroll, and no real wallet pays into a practice room. Checked once per INSERT
-- statement (the persister writes a batch of hands' entries in one), against every entry of the
-- transactions it touched: a mix is refused at the INSERT, before COMMIT, and the whole database
-- transaction rolls back. An escrow's room and a room's flag never change (the account guard, the
-- trigger above), so a transaction that passed stays right.
CREATE FUNCTION felt_check_ledger_chip_kinds() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  mixed uuid;
BEGIN
  SELECT e."transaction_id" INTO mixed
  FROM "ledger_entries" e
  JOIN "ledger_accounts" a ON a."id" = e."account_id"
  LEFT JOIN "rooms" r ON r."id" = a."room_id"
  WHERE e."transaction_id" IN (SELECT DISTINCT i."transaction_id" FROM inserted i)
  GROUP BY e."transaction_id"
  HAVING count(DISTINCT (a."kind" IN ('practice_wallet', 'practice_source')
    OR (a."kind" = 'escrow' AND coalesce(r."practice", false)))) > 1
  LIMIT 1;
  IF mixed IS NOT NULL THEN
    RAISE EXCEPTION 'felt: ledger transaction % moves chips between practice and real accounts', mixed
      USING ERRCODE = 'FL006';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "ledger_entries_chip_kinds" AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION felt_check_ledger_chip_kinds();
