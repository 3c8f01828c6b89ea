-- A deduction's state in no index: a payday's moves from esperado to en tránsito (600,000 at a million credits) become
-- updates in place (HOT) instead of new row versions with an entry in each of three indexes. The indexes that held
-- the state (the en tránsito ones by key, the esperado ones by date) give way to one over `open` (esperado or en
-- tránsito), which that move does not change; the held test goes through the primary key.
DROP INDEX "expected_deductions_transit_idx";--> statement-breakpoint
DROP INDEX "expected_deductions_waiting_idx";--> statement-breakpoint
-- An update stays in place only when its page has room: a tenth of each page is kept free (a page holds the rows of
-- three or four credits, each moving one row a payday and one when its payment arrives; vacuum frees the old
-- versions between paydays). Set before the column is added, whose rewrite of the table then leaves that room.
ALTER TABLE "expected_deductions" SET (fillfactor = 90);--> statement-breakpoint
ALTER TABLE "expected_deductions" ADD COLUMN "open" boolean GENERATED ALWAYS AS (state in ('esperado', 'en tránsito')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "expected_deductions_open_idx" ON "expected_deductions" USING btree ("company_id","discount_date") WHERE open;
