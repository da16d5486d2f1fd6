-- Re-entry (docs/dev/money-flows.md, "Tournaments"): a player out while late registration is open is
-- `busted` (placed and paid when it closes) and may buy in again until the director closes re-entry.
--
-- Nothing here uses 'busted': a value ALTER TYPE adds cannot be used in the transaction that adds it,
-- and migrate.ts applies each file in one. None needs to: the CHECK "tournament_entries_shape" already
-- holds a busted entry to no place, no finished_at and a prize of 0, and the partial unique index
-- "tournament_entries_one_live" (registered, playing) leaves it out, so a re-entry's row sits beside it.

-- AlterEnum
ALTER TYPE "tournament_entry_status" ADD VALUE 'busted' AFTER 'playing';

-- AlterTable
ALTER TABLE "tournaments" ADD COLUMN     "re_entry_closed_at" TIMESTAMPTZ(3);
