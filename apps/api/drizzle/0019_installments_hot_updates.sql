DROP INDEX "installments_owed_idx";--> statement-breakpoint
-- Room on each page for an installment's next version: the day close's late charges update several hundred
-- thousand late installments each day, in place (HOT) when no index involves what they change and the page has space.
ALTER TABLE "installments" SET (fillfactor = 85);
