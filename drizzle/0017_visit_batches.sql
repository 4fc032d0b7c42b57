-- issue 18 (decision 18-05, addendum "visits without per-row checks"): a visit row costs the
-- database about half as much without the per-row unique key and the per-row foreign-key check.
-- A retried batch is recognised by one key per batch instead of one per visit.
CREATE TABLE IF NOT EXISTS "visit_batches" (
  "key" text PRIMARY KEY NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "visits" DROP CONSTRAINT IF EXISTS "visits_batch_key_unique";
--> statement-breakpoint
ALTER TABLE "visits" DROP COLUMN IF EXISTS "batch_key";
--> statement-breakpoint
-- No foreign key on visits.profile_id: the rollup trigger's upsert into engagement_daily (which
-- keeps its key) fails the whole statement for a profile that does not exist, so no visit of an
-- unknown profile is written; the rows of a deleted profile go with it through this trigger.
ALTER TABLE "visits" DROP CONSTRAINT IF EXISTS "visits_profile_id_profiles_id_fk";
--> statement-breakpoint
CREATE FUNCTION "visits_of_deleted_profiles"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "visits" WHERE "profile_id" IN (SELECT "id" FROM old_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "profiles_delete_visits" AFTER DELETE ON "profiles" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "visits_of_deleted_profiles"();
