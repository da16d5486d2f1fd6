-- Practice chips, continued: the room flag, the two account kinds' shapes, and the rule that keeps
-- practice chips and real chips apart in the database itself.

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
      USING ERRCODE = 'FL004';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "rooms_practice_fixed" BEFORE UPDATE OF "practice" ON "rooms"
  FOR EACH ROW EXECUTE FUNCTION felt_keep_room_practice();

-- Practice chips and real chips never meet. A practice account is a practice wallet, the practice
-- source, or an escrow at a practice room; every other account holds real chips. A ledger
-- transaction's entries are all practice or all real: so no practice chip reaches a real wallet, the
-- rake or the bankroll, and no real wallet pays into a practice room. Checked after each insert of
-- entries, against every entry of the transaction so far: a mix is refused when its second kind
-- arrives (so the refusal comes at the INSERT, before COMMIT, and the whole database transaction
-- rolls back). An escrow's room and a room's flag never change (the account guard, the trigger
-- above), so a transaction that passed stays right.
CREATE FUNCTION felt_check_ledger_chip_kinds() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  practice_n integer;
  real_n integer;
BEGIN
  SELECT count(*) FILTER (WHERE s."practice"), count(*) FILTER (WHERE NOT s."practice")
    INTO practice_n, real_n
  FROM (
    SELECT (a."kind" IN ('practice_wallet', 'practice_source')
        OR (a."kind" = 'escrow' AND coalesce(r."practice", false))) AS "practice"
    FROM "ledger_entries" e
    JOIN "ledger_accounts" a ON a."id" = e."account_id"
    LEFT JOIN "rooms" r ON r."id" = a."room_id"
    WHERE e."transaction_id" = NEW."transaction_id"
  ) s;
  IF practice_n > 0 AND real_n > 0 THEN
    RAISE EXCEPTION 'felt: ledger transaction % moves chips between practice and real accounts', NEW."transaction_id"
      USING ERRCODE = 'FL004';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "ledger_entries_chip_kinds" AFTER INSERT ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION felt_check_ledger_chip_kinds();
