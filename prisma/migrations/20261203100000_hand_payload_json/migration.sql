-- AlterTable
ALTER TABLE "hands" ALTER COLUMN "payload" SET DATA TYPE JSON;

-- `json` keeps the record's text as the worker wrote it (jsonb reorders keys), so the history API
-- can replay the engine's operation log for the OHH and PHH exports.
