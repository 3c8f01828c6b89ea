DROP INDEX "expected_deductions_date_idx";--> statement-breakpoint
DROP INDEX "expected_deductions_open_idx";--> statement-breakpoint
DROP INDEX "installments_due_idx";--> statement-breakpoint
DROP INDEX "installments_pending_due_idx";--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "moratory_rate_pct" numeric(9, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "late_fee" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
-- The late-charge terms of each credit as its product has them now: the rate every close so far has charged.
UPDATE "credits" c SET "moratory_rate_pct" = p."moratory_rate_pct", "late_fee" = p."late_fee"
FROM "agreement_products" p WHERE p."id" = c."product_id";--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "accrues_from" date;--> statement-breakpoint
-- Rows late and not held at the last close had late charges accrued through it, one day at a time: from the business
-- date on they run by days. A row that fell due the day before the business date starts at the next close, which also
-- charges its late fee (docs/domain.md, "Late charges").
UPDATE "installments" i SET "accrues_from" = b."business_date"
FROM "business_dates" b
WHERE b."company_id" = i."company_id" AND i."outstanding" > 0 AND i."due_date" < b."business_date" - 1
  AND NOT EXISTS (SELECT 1 FROM "expected_deductions" d WHERE d."credit_id" = i."credit_id" AND d."period" = i."number" AND d."state" = 'en tránsito');--> statement-breakpoint
CREATE INDEX "installments_company_due_idx" ON "installments" USING btree ("company_id","due_date");--> statement-breakpoint
CREATE INDEX "expected_deductions_waiting_idx" ON "expected_deductions" USING btree ("company_id","discount_date") WHERE state = 'esperado';--> statement-breakpoint
ALTER TABLE "installments" DROP COLUMN "status";
