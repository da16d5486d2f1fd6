-- Engine-blind hands (docs/fairness.md, "Engine-blind dealing"): the players dealt the cards among
-- themselves, so the hand has no seed to reveal and nobody, the server included, knew a hole card
-- its owner did not show. `hand_cards` then holds only the known cards (the board, the shown hands).

-- AlterTable
ALTER TABLE "hands" ADD COLUMN     "dealing" TEXT NOT NULL DEFAULT 'standard';

-- An engine-blind hand keeps no reveal material: a seed stored beside it could only be a mistake.
ALTER TABLE "hands" ADD CONSTRAINT "hands_dealing" CHECK (
  "dealing" IN ('standard', 'engine_blind')
  AND ("dealing" = 'standard' OR ("seed_commit" IS NULL AND "server_seed" IS NULL AND "client_seeds" IS NULL
    AND "deck_seed" IS NULL AND "derivation" IS NULL AND "deck_kind" IS NULL))
);
