-- A payment file's expected deductions (the preview's expected against received and the missing ones, at upload and
-- again at apply) are a company's deductions of one date with their credit; the index of the date held only the
-- amount, so each file's figures read the whole table (24,000,000 rows at 1,000,000 credits, 2.4 GB from disk
-- when cold) for its 600,000 of the date. With the credit in the index they are read from it alone. The credit never
-- changes, so a deduction's state still moves in place (migration 0026). The home's month of amounts reads it as before.
CREATE INDEX "expected_deductions_company_date_idx" ON "expected_deductions" USING btree ("company_id","discount_date","credit_id","amount");--> statement-breakpoint
DROP INDEX "expected_deductions_company_amount_idx";
