-- issue 33 (decision 33-01): a token that ends without its owner revoking it by hand (a password
-- reset or change, its creator no longer a team admin) records why.
ALTER TABLE "api_tokens" ADD COLUMN IF NOT EXISTS "revoked_reason" text;
