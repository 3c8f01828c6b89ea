ALTER TABLE "agreement_products" ADD COLUMN "renewal_min_paid" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "agreement_products" ADD COLUMN "renewal_max_days_past_due" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "liquidation_reason" text;--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "renewed_by_credit_id" uuid;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "renews" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "renewal_minimum_net" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_renewed_by_credit_id_credits_id_fk" FOREIGN KEY ("renewed_by_credit_id") REFERENCES "public"."credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credits_company_liquidation_idx" ON "credits" USING btree ("company_id","liquidation_reason","number") WHERE liquidation_reason is not null;--> statement-breakpoint
CREATE INDEX "credits_renewed_by_idx" ON "credits" USING btree ("renewed_by_credit_id") WHERE renewed_by_credit_id is not null;