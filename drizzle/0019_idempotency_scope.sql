-- issue 33 (decision 33-03): an idempotency key belongs to its caller. The key is unique within its
-- scope (`user:<id>`, `team:<id>`, `visitor:<hmac>`), no longer across every order.
ALTER TABLE "orders" ADD COLUMN IF NOT EXISTS "idempotency_scope" text;--> statement-breakpoint
-- keys already stored keep answering their owner: a team's order in the team's scope (without the old
-- "team:" prefix), a signed-in order in the account's, a visitor's in a scope no new request uses
UPDATE "orders" SET
  "idempotency_scope" = CASE
    WHEN "team_id" IS NOT NULL AND "idempotency_key" LIKE 'team:%' THEN 'team:' || "team_id"::text
    WHEN "user_id" IS NOT NULL THEN 'user:' || "user_id"::text
    ELSE 'legacy' END,
  "idempotency_key" = CASE
    WHEN "team_id" IS NOT NULL AND "idempotency_key" LIKE 'team:%' THEN substr("idempotency_key", 6)
    ELSE "idempotency_key" END
WHERE "idempotency_key" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT IF EXISTS "orders_idempotency_key_unique";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "orders_idempotency_scope_key_idx" ON "orders" USING btree ("idempotency_scope","idempotency_key");--> statement-breakpoint
-- one-time links in e-mails already sent are redacted (the worker redacts each e-mail once it is sent)
UPDATE "outbox" SET
  "text_body" = regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace("text_body",
    '(https?://[^[:space:]"''<>]*)?/reset-password\?token=[A-Za-z0-9_.~%-]+', '[password reset link]', 'g'),
    '(https?://[^[:space:]"''<>]*)?/confirm-email\?verify=[A-Za-z0-9_.~%-]+', '[verification link]', 'g'),
    '(https?://[^[:space:]"''<>]*)?/confirm-email\?token=[A-Za-z0-9_.~%-]+', '[e-mail change link]', 'g'),
    '(https?://[^[:space:]"''<>]*)?/claim/[A-Za-z0-9_.~%-]+', '[order claim link]', 'g'),
    '(https?://[^[:space:]"''<>]*)?/team/join/[A-Za-z0-9_.~%-]+', '[team invitation link]', 'g'),
  "html_body" = regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace("html_body",
    '(https?://[^[:space:]"''<>]*)?/reset-password\?token=[A-Za-z0-9_.~%-]+', '[password reset link]', 'g'),
    '(https?://[^[:space:]"''<>]*)?/confirm-email\?verify=[A-Za-z0-9_.~%-]+', '[verification link]', 'g'),
    '(https?://[^[:space:]"''<>]*)?/confirm-email\?token=[A-Za-z0-9_.~%-]+', '[e-mail change link]', 'g'),
    '(https?://[^[:space:]"''<>]*)?/claim/[A-Za-z0-9_.~%-]+', '[order claim link]', 'g'),
    '(https?://[^[:space:]"''<>]*)?/team/join/[A-Za-z0-9_.~%-]+', '[team invitation link]', 'g')
WHERE "status" = 'sent';
