-- CreateTable
CREATE TABLE "waitlist_entries" (
    "room_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "offered_at" TIMESTAMPTZ(3),
    "offer_expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "waitlist_entries_pkey" PRIMARY KEY ("room_id","user_id")
);

-- CreateIndex
CREATE INDEX "waitlist_entries_room_id_created_at_idx" ON "waitlist_entries"("room_id", "created_at");

-- CreateIndex
CREATE INDEX "waitlist_entries_user_id_idx" ON "waitlist_entries"("user_id");

-- AddForeignKey
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Hand-written: an offer has both its times or neither, and it lapses after it was made.
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_offer_check"
  CHECK (("offered_at" IS NULL) = ("offer_expires_at" IS NULL) AND ("offer_expires_at" IS NULL OR "offer_expires_at" > "offered_at"));
