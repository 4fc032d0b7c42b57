-- issue 37 item 4 (decision 37-02): staff tools.
-- The outbox names the order an e-mail is about (search by order number); old e-mails get it from
-- their subject ("order #42").
ALTER TABLE "outbox" ADD COLUMN IF NOT EXISTS "order_id" integer;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "outbox_order_idx" ON "outbox" ("order_id") WHERE "order_id" IS NOT NULL;--> statement-breakpoint
UPDATE "outbox" SET "order_id" = (substring("subject" from '#([0-9]{1,9})'))::integer
  WHERE "order_id" IS NULL AND "subject" ~ '#[0-9]{1,9}';--> statement-breakpoint
-- An order placed while no admin account existed (nobody was told) is a to-do for the first admin
-- until a staff member marks it seen.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "placed_without_staff" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "staff_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "staff_seen_by" uuid REFERENCES "users"("id") ON DELETE set null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_staff_todo_idx" ON "orders" ("created_at") WHERE "placed_without_staff" AND "staff_seen_at" IS NULL;--> statement-breakpoint
-- orders that already wait from before the first admin account, still pending (nobody moved them)
UPDATE "orders" SET "placed_without_staff" = true
  WHERE "status" = 'pending'
    AND "created_at" < COALESCE((SELECT min("created_at") FROM "users" WHERE "role" = 'admin'), 'infinity'::timestamptz);
