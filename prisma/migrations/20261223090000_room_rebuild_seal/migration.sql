-- AlterTable
ALTER TABLE "rooms" ADD COLUMN     "rebuilt_epoch" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "rebuilt_hand_no" INTEGER NOT NULL DEFAULT 0;
