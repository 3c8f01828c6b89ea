CREATE TABLE "portfolio_figures" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"business_date" date NOT NULL,
	"figures" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "portfolio_figures" ADD CONSTRAINT "portfolio_figures_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "expected_deductions_company_amount_idx" ON "expected_deductions" USING btree ("company_id","discount_date","amount");--> statement-breakpoint
CREATE INDEX "expected_deductions_transit_idx" ON "expected_deductions" USING btree ("company_id","amount") WHERE state = 'en tránsito';--> statement-breakpoint
CREATE INDEX "payments_applied_amount_idx" ON "payments" USING btree ("company_id","value_date","amount") WHERE status = 'aplicado';--> statement-breakpoint
-- Company scope, as in 0013: portal_app sees its transaction's company's figures only, portal_all every company's.
ALTER TABLE "portfolio_figures" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY company_scope ON "portfolio_figures" TO portal_app
  USING ("company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid))
  WITH CHECK ("company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY all_companies ON "portfolio_figures" TO portal_all USING (true) WITH CHECK (true);
