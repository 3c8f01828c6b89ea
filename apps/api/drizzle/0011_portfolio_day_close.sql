CREATE TABLE "business_dates" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"business_date" date NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "day_close_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"from_date" date NOT NULL,
	"through_date" date NOT NULL,
	"days_total" integer NOT NULL,
	"days_done" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'en espera' NOT NULL,
	"job_id" text,
	"error" text,
	"requested_by" uuid,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "day_closes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"run_id" uuid,
	"business_date" date NOT NULL,
	"credits_processed" integer NOT NULL,
	"new_vencidos" integer NOT NULL,
	"newly_due_installments" integer NOT NULL,
	"to_transit" integer NOT NULL,
	"to_not_applied" integer NOT NULL,
	"moratory_accrued" numeric(14, 2) NOT NULL,
	"moratory_iva_accrued" numeric(14, 2) NOT NULL,
	"fees_accrued" numeric(14, 2) NOT NULL,
	"duration_ms" integer NOT NULL,
	"closed_by" uuid,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "aging_bucket" text DEFAULT 'current' NOT NULL;--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "labels" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "outstanding_balance" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "overdue_balance" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "next_discount_date" date;--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "moratory_interest" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "moratory_iva" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "fees" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "fees_iva" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "paid_moratory_interest" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "paid_moratory_iva" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "paid_fees" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "paid_fees_iva" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "outstanding" numeric(14, 2) GENERATED ALWAYS AS (principal + interest + iva + moratory_interest + moratory_iva + fees + fees_iva - paid_principal - paid_interest - paid_iva - paid_moratory_interest - paid_moratory_iva - paid_fees - paid_fees_iva) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "business_dates" ADD CONSTRAINT "business_dates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "day_close_runs" ADD CONSTRAINT "day_close_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "day_close_runs" ADD CONSTRAINT "day_close_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "day_closes" ADD CONSTRAINT "day_closes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "day_closes" ADD CONSTRAINT "day_closes_run_id_day_close_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."day_close_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "day_closes" ADD CONSTRAINT "day_closes_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "day_close_runs_company_idx" ON "day_close_runs" USING btree ("company_id","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "day_close_runs_active_key" ON "day_close_runs" USING btree ("company_id") WHERE status in ('en espera', 'en curso');--> statement-breakpoint
CREATE UNIQUE INDEX "day_closes_company_date_key" ON "day_closes" USING btree ("company_id","business_date");--> statement-breakpoint
CREATE INDEX "clients_company_rfc_idx" ON "clients" USING btree ("company_id","rfc");--> statement-breakpoint
CREATE INDEX "clients_name_trgm_idx" ON "clients" USING gin (("first_names" || ' ' || "last_name_1" || ' ' || coalesce("last_name_2", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "credits_company_number_idx" ON "credits" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "credits_company_bucket_idx" ON "credits" USING btree ("company_id","aging_bucket","number");--> statement-breakpoint
CREATE INDEX "credits_company_dpd_idx" ON "credits" USING btree ("company_id","days_past_due","number");--> statement-breakpoint
CREATE INDEX "credits_company_disbursement_idx" ON "credits" USING btree ("company_id","disbursement_date","number");--> statement-breakpoint
CREATE INDEX "credits_company_balance_idx" ON "credits" USING btree ("company_id","outstanding_balance","number");--> statement-breakpoint
CREATE INDEX "credits_company_employee_idx" ON "credits" USING btree ("company_id","employee_number");--> statement-breakpoint
CREATE INDEX "credits_labels_idx" ON "credits" USING gin ("labels");--> statement-breakpoint
CREATE INDEX "expected_deductions_open_idx" ON "expected_deductions" USING btree ("company_id","discount_date") WHERE state in ('esperado', 'en tránsito');--> statement-breakpoint
CREATE INDEX "installments_owed_idx" ON "installments" USING btree ("company_id","credit_id","due_date") WHERE outstanding > 0;--> statement-breakpoint
CREATE INDEX "installments_pending_due_idx" ON "installments" USING btree ("company_id","due_date") WHERE status = 'pendiente';--> statement-breakpoint
-- Company scope for the new company-owned tables, as in 0010: portal_app sees its transaction's company only,
-- portal_all (role SA, the system's own work such as the day-close job) every company.
DO $$
DECLARE
  owned text;
  rule text := $rule$"company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid)$rule$;
BEGIN
  FOREACH owned IN ARRAY ARRAY['business_dates', 'day_close_runs', 'day_closes'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', owned);
    EXECUTE format('CREATE POLICY company_scope ON %I TO portal_app USING (%s) WITH CHECK (%s)', owned, rule, rule);
    EXECUTE format('CREATE POLICY all_companies ON %I TO portal_all USING (true) WITH CHECK (true)', owned);
  END LOOP;
END $$;--> statement-breakpoint
-- Balances of the credits that exist: what each still owes, what of it is due, and its next discount date, at the
-- clock's date (the first close recomputes them at the business date).
UPDATE "credits" c SET
  "outstanding_balance" = s.owed,
  "overdue_balance" = s.due,
  "next_discount_date" = s.next_date
FROM (
  SELECT credit_id,
         sum(outstanding) AS owed,
         coalesce(sum(outstanding) FILTER (WHERE due_date <= current_date), 0) AS due,
         min(due_date) FILTER (WHERE due_date > current_date AND outstanding > 0) AS next_date
  FROM "installments" GROUP BY credit_id
) s
WHERE s.credit_id = c.id;
