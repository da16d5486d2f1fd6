-- Tournaments (issue 19): the prize pool and fee accounts and the ledger kinds that move chips
-- through them. New enum values cannot be used in the transaction that adds them, so the accounts,
-- tables and rules follow in the next migration.
ALTER TYPE "account_kind" ADD VALUE 'tournament_pool';
ALTER TYPE "account_kind" ADD VALUE 'house_fee';
ALTER TYPE "ledger_tx_kind" ADD VALUE 'tournament_entry';
ALTER TYPE "ledger_tx_kind" ADD VALUE 'tournament_refund';
ALTER TYPE "ledger_tx_kind" ADD VALUE 'tournament_prize';
