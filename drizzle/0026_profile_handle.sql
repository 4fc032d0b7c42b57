-- issue 37 item 1 (decision 37-04): a profile's handle (/@{handle}), unique by its skeleton; the
-- previous handle keeps redirecting until previous_handle_until.
ALTER TABLE "profiles" ADD COLUMN IF NOT EXISTS "handle" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN IF NOT EXISTS "handle_key" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN IF NOT EXISTS "previous_handle" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN IF NOT EXISTS "previous_handle_key" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN IF NOT EXISTS "previous_handle_until" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "profiles_handle_idx" ON "profiles" ("handle");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "profiles_handle_key_idx" ON "profiles" ("handle_key");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "profiles_previous_handle_key_idx" ON "profiles" ("previous_handle_key");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_previous_handle_idx" ON "profiles" ("previous_handle");
