-- AlterTable
ALTER TABLE "tournaments" ADD COLUMN     "registration_closed_at" TIMESTAMPTZ(3);
