-- issue 39 items 4 and 5 (decision 39-02): SCIM 2.0 provisioning and the identity audit log.
CREATE TABLE IF NOT EXISTS "scim_settings" (
	"team_id" uuid PRIMARY KEY NOT NULL REFERENCES "teams"("id") ON DELETE cascade,
	"field_rules" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"admin_group" text DEFAULT 'Card admins' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "scim_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL REFERENCES "teams"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"user_name" text NOT NULL,
	"external_id" text,
	"active" boolean DEFAULT true NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scim_users_team_user_uq" UNIQUE("team_id","user_id")
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scim_users_team_name_idx" ON "scim_users" ("team_id","user_name");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "scim_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL REFERENCES "teams"("id") ON DELETE cascade,
	"display_name" text NOT NULL,
	"external_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scim_groups_team_idx" ON "scim_groups" ("team_id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "scim_group_members" (
	"group_id" uuid NOT NULL REFERENCES "scim_groups"("id") ON DELETE cascade,
	"scim_user_id" uuid NOT NULL REFERENCES "scim_users"("id") ON DELETE cascade,
	CONSTRAINT "scim_group_members_pk" PRIMARY KEY("group_id","scim_user_id")
);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "identity_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"team_id" uuid,
	"actor_id" uuid,
	"user_id" uuid,
	"email" text,
	"kind" text NOT NULL,
	"outcome" text DEFAULT 'success' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "identity_events_at_idx" ON "identity_events" ("at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "identity_events_team_idx" ON "identity_events" ("team_id","at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "identity_events_user_idx" ON "identity_events" ("user_id","at");
