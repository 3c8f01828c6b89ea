ALTER TABLE "agreement_products" ADD COLUMN "moratory_rate_pct" numeric(9, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "agreement_products" ADD COLUMN "late_fee" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "agreements" ADD COLUMN "pay_day" integer;--> statement-breakpoint
ALTER TABLE "agreements" ADD COLUMN "payday_weekday" integer;--> statement-breakpoint
ALTER TABLE "agreements" ADD COLUMN "cut_off_lead_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "opening_fee_iva" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "accepted_terms" jsonb;