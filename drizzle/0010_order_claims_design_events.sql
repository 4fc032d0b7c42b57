-- issue 20: every order gets its card code at once, before its buyer has a profile
ALTER TABLE "card_codes" ALTER COLUMN "profile_id" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "card_codes_order_idx" ON "card_codes" ("order_id");--> statement-breakpoint
-- a visitor's order: a single-use claim link (sha256 of the token) in the order e-mail
ALTER TABLE "orders" ADD COLUMN "claim_token_hash" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "orders_claim_token_idx" ON "orders" ("claim_token_hash");--> statement-breakpoint
-- the design review loop of an order: submitted, needs changes (with the reason), resubmitted, approved
CREATE TABLE IF NOT EXISTS "design_events" (
  "id" serial PRIMARY KEY NOT NULL,
  "order_id" integer REFERENCES "orders"("id") ON DELETE CASCADE,
  "card_id" integer NOT NULL,
  "kind" text NOT NULL,
  "reason" text,
  "actor_label" text DEFAULT '' NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "design_events_order_idx" ON "design_events" ("order_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "design_events_card_idx" ON "design_events" ("card_id");--> statement-breakpoint
-- designs already in the system: their submission and, when reviewed, the review
INSERT INTO "design_events" ("order_id", "card_id", "kind", "actor_label", "created_at")
  SELECT o."id", c."id", 'submitted', 'customer', c."submitted_at" FROM "cards" c LEFT JOIN "orders" o ON o."id" = c."order_id";--> statement-breakpoint
INSERT INTO "design_events" ("order_id", "card_id", "kind", "reason", "actor_label", "created_at")
  SELECT o."id", c."id", CASE WHEN c."status" = 'approved' THEN 'approved' ELSE 'rejected' END, c."review_notes", 'staff', COALESCE(c."reviewed_at", c."submitted_at")
  FROM "cards" c LEFT JOIN "orders" o ON o."id" = c."order_id" WHERE c."status" IN ('approved', 'rejected');
