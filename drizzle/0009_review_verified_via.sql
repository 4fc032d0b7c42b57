ALTER TABLE "reviews" ADD COLUMN "verified_via" text;--> statement-breakpoint
-- reviews verified before this column: by staff when a staff member is recorded, else by a proven order
UPDATE "reviews" SET "verified_via" = CASE WHEN "verified_by" IS NOT NULL THEN 'staff' ELSE 'purchase' END WHERE "verified";
