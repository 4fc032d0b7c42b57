-- issue 23: webhooks (decision 23-02): events recorded with the change, endpoints, and their deliveries
CREATE TABLE IF NOT EXISTS "webhook_events" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "type" text NOT NULL,
  "user_id" uuid,
  "team_id" uuid,
  "data" jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "webhook_endpoints" (
  "id" serial PRIMARY KEY NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "team_id" uuid REFERENCES "teams"("id") ON DELETE CASCADE,
  "url" text NOT NULL,
  "description" text DEFAULT '' NOT NULL,
  "events" jsonb NOT NULL,
  "secret" text NOT NULL,
  "enabled" boolean DEFAULT true NOT NULL,
  "disabled_reason" text,
  "disabled_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_endpoints_user_idx" ON "webhook_endpoints" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_endpoints_team_idx" ON "webhook_endpoints" ("team_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "webhook_deliveries" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "endpoint_id" integer NOT NULL REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
  "event_id" bigint,
  "message_id" text NOT NULL,
  "type" text NOT NULL,
  "payload" text NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  "locked_until" timestamp with time zone,
  "first_attempt_at" timestamp with time zone,
  "last_attempt_at" timestamp with time zone,
  "response_status" integer,
  "duration_ms" integer,
  "last_error" text,
  "delivered_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "webhook_deliveries_event_endpoint_uq" UNIQUE ("event_id", "endpoint_id")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" ("endpoint_id", "status", "id");
