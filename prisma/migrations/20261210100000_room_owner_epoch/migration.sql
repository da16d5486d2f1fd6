-- AlterTable
ALTER TABLE "rooms" ADD COLUMN     "owner_epoch" BIGINT NOT NULL DEFAULT 0;

-- The lease epoch (issue 8) of the last table worker that wrote for the room: a worker's Postgres
-- write carries its epoch, is refused when this is higher (another worker has taken the table over
-- since), and otherwise raises it. It only grows.
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_owner_epoch_nonnegative" CHECK ("owner_epoch" >= 0);
