-- issue 35 (decision 35-01): payment state of every order. Payments and refunds (staff in invoice
-- mode, the online store's webhooks), what the store collected (its order, total, tax, shipping
-- address, cancellation) and the store's webhook ids handled once.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "store_order_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "store_order_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "store_total_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "store_tax_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "store_shipping_address" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "store_cancelled_at" timestamp with time zone;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "orders" ADD CONSTRAINT "orders_store_order_idx" UNIQUE("store_order_id");
EXCEPTION WHEN duplicate_object OR duplicate_table THEN NULL;
END $$;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "order_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL REFERENCES "orders"("id") ON DELETE cascade,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"method" text NOT NULL,
	"reference" text,
	"settles" boolean DEFAULT false NOT NULL,
	"source" text NOT NULL,
	"external_id" text,
	"recorded_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"recorded_by_label" text DEFAULT 'staff' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_payments_external_idx" UNIQUE("external_id"),
	CONSTRAINT "order_payments_kind_check" CHECK ("kind" IN ('payment', 'refund')),
	CONSTRAINT "order_payments_amount_check" CHECK ("amount_cents" > 0)
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "order_payments_order_idx" ON "order_payments" USING btree ("order_id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "store_webhook_events" (
	"webhook_id" text PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"store_order_id" text,
	"order_id" integer REFERENCES "orders"("id") ON DELETE set null,
	"status" text NOT NULL,
	"payload" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handled_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "store_webhook_events_store_order_idx" ON "store_webhook_events" USING btree ("store_order_id");
