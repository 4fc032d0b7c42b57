-- reserved for 0016_webhooks: the helper that owns it writes the statements (remove if unused)
SELECT 1;
