-- The house bankroll account: one row, no owner, key 'house_bankroll'. It is not the grant source, so
-- ledger_accounts_balance_nonnegative keeps it at zero or above: an empty bankroll stakes nothing.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_shape";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_shape" CHECK (
  CASE "kind"
    WHEN 'wallet' THEN "user_id" IS NOT NULL AND "room_id" IS NULL AND "key" = 'wallet:' || "user_id"::text
    WHEN 'escrow' THEN "user_id" IS NOT NULL AND "room_id" IS NOT NULL
      AND "key" = 'escrow:' || "room_id"::text || ':' || "user_id"::text
    WHEN 'house_rake' THEN "user_id" IS NULL AND "room_id" IS NULL AND "key" = 'house_rake'
    WHEN 'grant_source' THEN "user_id" IS NULL AND "room_id" IS NULL AND "key" = 'grant_source'
    WHEN 'house_bankroll' THEN "user_id" IS NULL AND "room_id" IS NULL AND "key" = 'house_bankroll'
  END
);
INSERT INTO "ledger_accounts" ("key", "kind") VALUES ('house_bankroll', 'house_bankroll');

-- Bot stakes are summed per day to cap what the bankroll puts at risk.
CREATE INDEX "ledger_transactions_kind_created_at_idx" ON "ledger_transactions" ("kind", "created_at");
