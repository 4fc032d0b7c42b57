-- reserved for 0015_developer_tokens: the helper that owns it writes the statements (remove if unused)
SELECT 1;
