-- AlterTable
ALTER TABLE "hands" ADD COLUMN     "voided_reason" TEXT;

-- A voided hand (issue 8) is recorded as a `hands` row with its reason, the players and their
-- hand-start stacks, and nothing else: no hand number (a void takes none, so the room's cursor and
-- the cash-outs waiting on it never wait for it), no pots, no actions, no money moved.
ALTER TABLE "hands" ADD CONSTRAINT "hands_voided_unnumbered" CHECK (
  "voided_reason" IS NULL OR ("hand_no" IS NULL AND "pot_total" = 0 AND "rake" = 0)
);
