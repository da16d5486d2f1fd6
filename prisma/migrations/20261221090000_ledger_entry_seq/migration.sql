-- The wallet history (issue 18): an account's entries in the order they were applied, for keyset
-- paging and each entry's resulting balance. Entries are inserted only after their accounts are
-- locked, so seq orders one account's entries as its balance saw them; created_at (the database
-- transaction's start) does not. Existing rows are numbered in their physical order. The
-- (account_id, seq) index replaces the account_id one, which it covers.

-- DropIndex
DROP INDEX "ledger_entries_account_id_idx";

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE INDEX "ledger_entries_account_id_seq_idx" ON "ledger_entries"("account_id", "seq");
