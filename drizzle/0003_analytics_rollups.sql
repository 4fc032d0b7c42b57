CREATE TABLE "engagement_daily" (
	"profile_id" text NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"card_code" text DEFAULT '' NOT NULL,
	"link_id" integer DEFAULT 0 NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "engagement_daily_profile_id_day_kind_source_card_code_link_id_pk" PRIMARY KEY("profile_id","day","kind","source","card_code","link_id")
);
--> statement-breakpoint
ALTER TABLE "engagement_daily" ADD CONSTRAINT "engagement_daily_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Rollups kept current in the transaction that writes the raw rows (decision 18-02): one
-- statement-level trigger per table aggregates the statement's new rows (a batch of the visit
-- flusher is a handful of statements, whatever its size).
CREATE FUNCTION "engagement_daily_from_visits"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "engagement_daily" ("profile_id", "day", "kind", "source", "card_code", "link_id", "n")
  SELECT "profile_id", ("created_at" AT TIME ZONE 'UTC')::date, 'view', "source", coalesce("card_code", ''), 0, count(*)::int
  FROM new_rows GROUP BY 1, 2, 4, 5
  ON CONFLICT ("profile_id", "day", "kind", "source", "card_code", "link_id") DO UPDATE SET "n" = "engagement_daily"."n" + excluded."n";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "engagement_daily_from_clicks"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "engagement_daily" ("profile_id", "day", "kind", "source", "card_code", "link_id", "n")
  SELECT "profile_id", ("created_at" AT TIME ZONE 'UTC')::date, 'click', '', '', coalesce("link_id", 0), count(*)::int
  FROM new_rows GROUP BY 1, 2, 6
  ON CONFLICT ("profile_id", "day", "kind", "source", "card_code", "link_id") DO UPDATE SET "n" = "engagement_daily"."n" + excluded."n";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "engagement_daily_from_saves"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "engagement_daily" ("profile_id", "day", "kind", "source", "card_code", "link_id", "n")
  SELECT "profile_id", ("created_at" AT TIME ZONE 'UTC')::date, 'save', '', '', 0, count(*)::int
  FROM new_rows GROUP BY 1, 2
  ON CONFLICT ("profile_id", "day", "kind", "source", "card_code", "link_id") DO UPDATE SET "n" = "engagement_daily"."n" + excluded."n";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "visits_rollup" AFTER INSERT ON "visits" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "engagement_daily_from_visits"();
--> statement-breakpoint
CREATE TRIGGER "link_clicks_rollup" AFTER INSERT ON "link_clicks" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "engagement_daily_from_clicks"();
--> statement-breakpoint
CREATE TRIGGER "contact_saves_rollup" AFTER INSERT ON "contact_saves" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "engagement_daily_from_saves"();
--> statement-breakpoint
-- backfill from the rows already there
INSERT INTO "engagement_daily" ("profile_id", "day", "kind", "source", "card_code", "link_id", "n")
SELECT "profile_id", ("created_at" AT TIME ZONE 'UTC')::date, 'view', "source", coalesce("card_code", ''), 0, count(*)::int FROM "visits" GROUP BY 1, 2, 4, 5;
--> statement-breakpoint
INSERT INTO "engagement_daily" ("profile_id", "day", "kind", "source", "card_code", "link_id", "n")
SELECT "profile_id", ("created_at" AT TIME ZONE 'UTC')::date, 'click', '', '', coalesce("link_id", 0), count(*)::int FROM "link_clicks" GROUP BY 1, 2, 6;
--> statement-breakpoint
INSERT INTO "engagement_daily" ("profile_id", "day", "kind", "source", "card_code", "link_id", "n")
SELECT "profile_id", ("created_at" AT TIME ZONE 'UTC')::date, 'save', '', '', 0, count(*)::int FROM "contact_saves" GROUP BY 1, 2;
