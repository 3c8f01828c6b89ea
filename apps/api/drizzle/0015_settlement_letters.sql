CREATE TABLE "letter_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"file_name" text NOT NULL,
	"background" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"page_width" real NOT NULL,
	"page_height" real NOT NULL,
	"layout" jsonb NOT NULL,
	"uploaded_by" uuid,
	"uploaded_by_email" text,
	"uploaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_letters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"credit_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"reference" text NOT NULL,
	"template_id" uuid NOT NULL,
	"template_version" integer NOT NULL,
	"brand" text NOT NULL,
	"quote_date" date NOT NULL,
	"valid_until" date NOT NULL,
	"discount_date" date,
	"credit_amount" numeric(14, 2) NOT NULL,
	"term" integer NOT NULL,
	"payments_made" integer NOT NULL,
	"installment" numeric(14, 2) NOT NULL,
	"in_transit" numeric(14, 2) NOT NULL,
	"final_balance" numeric(14, 2) NOT NULL,
	"pending_deduction" numeric(14, 2) NOT NULL,
	"total_amount" numeric(14, 2) NOT NULL,
	"payoff" jsonb NOT NULL,
	"texts" jsonb NOT NULL,
	"pdf" "bytea" NOT NULL,
	"pdf_size" integer NOT NULL,
	"pdf_sha256" text NOT NULL,
	"issued_by" uuid,
	"issued_by_email" text,
	"issued_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "letter_validity_days" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "letter_templates" ADD CONSTRAINT "letter_templates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letter_templates" ADD CONSTRAINT "letter_templates_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_letters" ADD CONSTRAINT "settlement_letters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_letters" ADD CONSTRAINT "settlement_letters_credit_id_credits_id_fk" FOREIGN KEY ("credit_id") REFERENCES "public"."credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_letters" ADD CONSTRAINT "settlement_letters_template_id_letter_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."letter_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_letters" ADD CONSTRAINT "settlement_letters_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "letter_templates_company_version_key" ON "letter_templates" USING btree ("company_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_letters_credit_number_key" ON "settlement_letters" USING btree ("credit_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_letters_company_reference_key" ON "settlement_letters" USING btree ("company_id","reference");--> statement-breakpoint
CREATE INDEX "settlement_letters_credit_idx" ON "settlement_letters" USING btree ("company_id","credit_id","issued_at");--> statement-breakpoint
-- Company scope for the letters' tables, as in 0014: portal_app sees its transaction's company only, portal_all every company.
DO $$
DECLARE
  owned text;
  rule text := $rule$"company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid)$rule$;
BEGIN
  FOREACH owned IN ARRAY ARRAY['letter_templates', 'settlement_letters'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', owned);
    EXECUTE format('CREATE POLICY company_scope ON %I TO portal_app USING (%s) WITH CHECK (%s)', owned, rule, rule);
    EXECUTE format('CREATE POLICY all_companies ON %I TO portal_all USING (true) WITH CHECK (true)', owned);
  END LOOP;
END $$;
