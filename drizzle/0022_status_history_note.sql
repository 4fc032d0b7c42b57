-- issue 35 (decision 35-04): a status move can carry a note, the reason staff gave to start
-- production before the order was paid (the payment override of the status machine).
ALTER TABLE "order_status_history" ADD COLUMN IF NOT EXISTS "note" text;
