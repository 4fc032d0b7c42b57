-- issue 35 (decision 35-02): the order's delivery address (null for pickup and for orders placed
-- before it was asked for) and the shop's settings (one row of JSON sections, defaults in code).
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "shipping_address" jsonb;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "shop_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_settings_one_row" CHECK ("id" = 1)
);
