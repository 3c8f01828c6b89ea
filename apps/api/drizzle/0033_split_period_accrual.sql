ALTER TABLE "installments" ADD COLUMN "accrual_through" date;--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "accrual_cent_days" numeric(30, 0);