-- The house bankroll (issue 13): bots buy in from chips an operator funded, not from the grant source.
-- New enum values cannot be used in the transaction that adds them, so the account and its rules
-- follow in the next migration.
ALTER TYPE "account_kind" ADD VALUE 'house_bankroll';
ALTER TYPE "ledger_tx_kind" ADD VALUE 'bankroll_funding';
ALTER TYPE "ledger_tx_kind" ADD VALUE 'bot_stake';
ALTER TYPE "ledger_tx_kind" ADD VALUE 'bot_return';
