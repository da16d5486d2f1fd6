-- CreateTable
CREATE TABLE "tournament_tables" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tournament_id" UUID NOT NULL,
    "table_no" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "tournament_tables_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tournament_tables_tournament_id_table_no_key" ON "tournament_tables"("tournament_id", "table_no");

-- AddForeignKey
ALTER TABLE "tournament_tables" ADD CONSTRAINT "tournament_tables_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A table number is 1 or more.
ALTER TABLE "tournament_tables" ADD CONSTRAINT "tournament_tables_table_no_check" CHECK ("table_no" >= 1);

-- AlterTable
ALTER TABLE "tournament_entries" ADD COLUMN     "table_id" UUID;
