-- issue 22: the shop floor: how an order leaves it (carrier and tracking number, or a pickup code)
CREATE TABLE IF NOT EXISTS "order_fulfilment" (
  "order_id" integer PRIMARY KEY NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
  "carrier" text,
  "tracking_number" text,
  "tracking_url" text,
  "shipped_at" timestamp with time zone,
  "pickup_code" text,
  "pickup_ready_at" timestamp with time zone,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
