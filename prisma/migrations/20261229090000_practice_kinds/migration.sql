-- Practice chips (docs/dev/money-flows.md, "Practice chips"): free chips for practice rooms, kept
-- apart from real ones. A player's practice wallet (`practice:<user>`) is refilled on demand from
-- the practice source, which runs a deficit like the grant source.
--
-- New enum values cannot be used in the transaction that adds them, and migrate.ts applies each file
-- in one: the accounts, the room flag and the rules follow in the next migration.

-- AlterEnum
ALTER TYPE "account_kind" ADD VALUE 'practice_wallet';
ALTER TYPE "account_kind" ADD VALUE 'practice_source';

-- AlterEnum
ALTER TYPE "ledger_tx_kind" ADD VALUE 'practice_refill';
