-- issue 37 item 1 (decision 37-03): a profile link's own label (a custom link's button text).
ALTER TABLE "profile_links" ADD COLUMN IF NOT EXISTS "label" text;
