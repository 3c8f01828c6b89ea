CREATE TABLE "payment_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"state" text DEFAULT 'en espera' NOT NULL,
	"rows_total" integer NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"error" text,
	"job_id" text,
	"requested_by" uuid,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_file_rows" (
	"file_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"company_id" uuid NOT NULL,
	"raw" text NOT NULL,
	"credit_ref" text,
	"employee_number" text,
	"curp_rfc" text,
	"amount" numeric(14, 2),
	"period" text,
	"reference" text,
	"outcome" text NOT NULL,
	"message" text,
	"credit_id" uuid,
	CONSTRAINT "payment_file_rows_file_id_line_pk" PRIMARY KEY("file_id","line")
);
--> statement-breakpoint
CREATE TABLE "payment_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"agreement_id" uuid NOT NULL,
	"discount_date" date NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"encoding" text NOT NULL,
	"layout" jsonb NOT NULL,
	"status" text DEFAULT 'cargado' NOT NULL,
	"status_reason" text,
	"rows_total" integer DEFAULT 0 NOT NULL,
	"rows_valid" integer DEFAULT 0 NOT NULL,
	"rows_rejected" integer DEFAULT 0 NOT NULL,
	"amount_total" numeric(14, 2) DEFAULT '0' NOT NULL,
	"amount_valid" numeric(14, 2) DEFAULT '0' NOT NULL,
	"amount_rejected" numeric(14, 2) DEFAULT '0' NOT NULL,
	"amount_applied" numeric(14, 2) DEFAULT '0' NOT NULL,
	"overpayment" numeric(14, 2) DEFAULT '0' NOT NULL,
	"expected_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"expected_count" integer DEFAULT 0 NOT NULL,
	"missing_count" integer DEFAULT 0 NOT NULL,
	"uploaded_by" uuid,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_by" uuid,
	"applied_at" timestamp with time zone,
	"reverted_by" uuid,
	"reverted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sequence" bigserial NOT NULL,
	"company_id" uuid NOT NULL,
	"credit_id" uuid NOT NULL,
	"file_id" uuid,
	"file_line" integer,
	"value_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"principal" numeric(14, 2) NOT NULL,
	"interest" numeric(14, 2) NOT NULL,
	"iva" numeric(14, 2) NOT NULL,
	"moratory_interest" numeric(14, 2) NOT NULL,
	"moratory_iva" numeric(14, 2) NOT NULL,
	"fees" numeric(14, 2) NOT NULL,
	"fees_iva" numeric(14, 2) NOT NULL,
	"overpayment" numeric(14, 2) NOT NULL,
	"allocation" jsonb NOT NULL,
	"before" jsonb NOT NULL,
	"status" text DEFAULT 'aplicado' NOT NULL,
	"applied_by" uuid,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reverted_at" timestamp with time zone,
	CONSTRAINT "payments_sequence_unique" UNIQUE("sequence")
);
--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "credit_balance" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "days" integer;--> statement-breakpoint
ALTER TABLE "payment_applications" ADD CONSTRAINT "payment_applications_file_id_payment_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."payment_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_applications" ADD CONSTRAINT "payment_applications_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_applications" ADD CONSTRAINT "payment_applications_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_file_rows" ADD CONSTRAINT "payment_file_rows_file_id_payment_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."payment_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_file_rows" ADD CONSTRAINT "payment_file_rows_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_file_rows" ADD CONSTRAINT "payment_file_rows_credit_id_credits_id_fk" FOREIGN KEY ("credit_id") REFERENCES "public"."credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_files" ADD CONSTRAINT "payment_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_files" ADD CONSTRAINT "payment_files_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_files" ADD CONSTRAINT "payment_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_files" ADD CONSTRAINT "payment_files_applied_by_users_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_files" ADD CONSTRAINT "payment_files_reverted_by_users_id_fk" FOREIGN KEY ("reverted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_credit_id_credits_id_fk" FOREIGN KEY ("credit_id") REFERENCES "public"."credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_file_id_payment_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."payment_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_applied_by_users_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_applications_file_idx" ON "payment_applications" USING btree ("file_id","requested_at");--> statement-breakpoint
CREATE INDEX "payment_file_rows_credit_idx" ON "payment_file_rows" USING btree ("credit_id");--> statement-breakpoint
CREATE INDEX "payment_files_company_idx" ON "payment_files" USING btree ("company_id","uploaded_at");--> statement-breakpoint
CREATE INDEX "payment_files_agreement_idx" ON "payment_files" USING btree ("agreement_id","discount_date");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_files_live_sha_key" ON "payment_files" USING btree ("company_id","sha256") WHERE status not in ('rechazado', 'revertido');--> statement-breakpoint
CREATE INDEX "payments_credit_idx" ON "payments" USING btree ("credit_id","sequence");--> statement-breakpoint
CREATE INDEX "payments_file_idx" ON "payments" USING btree ("file_id","file_line");--> statement-breakpoint
CREATE INDEX "payments_company_date_idx" ON "payments" USING btree ("company_id","value_date");--> statement-breakpoint
-- Company scope for the payment files' tables, as in 0010 and 0011: portal_app sees its transaction's company only,
-- portal_all (role SA, the system's own work such as the application job) every company.
DO $$
DECLARE
  owned text;
  rule text := $rule$"company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid)$rule$;
BEGIN
  FOREACH owned IN ARRAY ARRAY['payment_files', 'payment_file_rows', 'payment_applications', 'payments'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', owned);
    EXECUTE format('CREATE POLICY company_scope ON %I TO portal_app USING (%s) WITH CHECK (%s)', owned, rule, rule);
    EXECUTE format('CREATE POLICY all_companies ON %I TO portal_all USING (true) WITH CHECK (true)', owned);
  END LOOP;
END $$;
