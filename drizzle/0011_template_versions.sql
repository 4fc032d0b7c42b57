-- issue 20: every version of a card template is kept (the manager previews, checks, rolls back)
CREATE TABLE IF NOT EXISTS "template_versions" (
  "id" serial PRIMARY KEY NOT NULL,
  "template_id" integer NOT NULL REFERENCES "templates"("id") ON DELETE CASCADE,
  "version" integer NOT NULL,
  "front_svg" text,
  "back_svg" text,
  "notes" text,
  "created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "template_versions_template_version_uniq" UNIQUE ("template_id", "version")
);--> statement-breakpoint
INSERT INTO "template_versions" ("template_id", "version", "front_svg", "back_svg", "notes", "created_by", "created_at")
  SELECT "id", "version", "front_svg", "back_svg", "notes", "updated_by", "updated_at" FROM "templates"
  ON CONFLICT DO NOTHING;
