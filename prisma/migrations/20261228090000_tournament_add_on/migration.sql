-- Add-ons (docs/dev/money-flows.md, "Tournaments"): a scheduled tournament whose config has
-- addOn {chips, cost} sells each playing entry `chips` more for `cost` into the prize pool, once, at
-- its first break. The director opens the sale (add_on_until: the break's end) and closes it once the
-- break is over (add_on_closed_at); an entry records its purchase (add_on_at) and, when its player was
-- out before the chips reached the table, the refund (add_on_refunded_at).
--
-- Nothing here uses the two new ledger kinds: a value ALTER TYPE adds cannot be used in the
-- transaction that adds it, and migrate.ts applies each file in one. None needs to.

-- AlterEnum
ALTER TYPE "ledger_tx_kind" ADD VALUE 'tournament_add_on';
ALTER TYPE "ledger_tx_kind" ADD VALUE 'tournament_add_on_refund';

-- AlterTable
ALTER TABLE "tournaments" ADD COLUMN     "add_on_closed_at" TIMESTAMPTZ(3),
ADD COLUMN     "add_on_until" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "tournament_entries" ADD COLUMN     "add_on_at" TIMESTAMPTZ(3),
ADD COLUMN     "add_on_refunded_at" TIMESTAMPTZ(3);

-- Only an add-on bought can be refunded.
ALTER TABLE "tournament_entries" ADD CONSTRAINT "tournament_entries_add_on" CHECK (
  "add_on_refunded_at" IS NULL OR "add_on_at" IS NOT NULL
);
