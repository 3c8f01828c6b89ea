DROP INDEX "expected_deductions_transit_idx";--> statement-breakpoint
CREATE INDEX "expected_deductions_transit_idx" ON "expected_deductions" USING btree ("company_id","credit_id","period","amount") WHERE state = 'en tránsito';--> statement-breakpoint
-- Room in each page of credits for the day close's updates in place (HOT): a payday moves only the next discount date of
-- most credits, a column no index holds (docs/decisions/0011-payday-close-in-place.md).
ALTER TABLE "credits" SET (fillfactor = 55);