CREATE TABLE "deduction_order_lines" (
	"order_id" uuid NOT NULL,
	"credit_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"credit_number" integer NOT NULL,
	"employee_number" text NOT NULL,
	"curp" text NOT NULL,
	"name" text NOT NULL,
	"movement" text NOT NULL,
	"amount_before" numeric(14, 2) NOT NULL,
	"amount_after" numeric(14, 2) NOT NULL,
	"reason" text,
	CONSTRAINT "deduction_order_lines_order_id_credit_id_pk" PRIMARY KEY("order_id","credit_id")
);
--> statement-breakpoint
CREATE TABLE "deduction_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"agreement_id" uuid NOT NULL,
	"payday" date NOT NULL,
	"cut_off_date" date NOT NULL,
	"business_date" date NOT NULL,
	"status" text DEFAULT 'borrador' NOT NULL,
	"baseline_id" uuid,
	"supersedes_id" uuid,
	"altas_count" integer DEFAULT 0 NOT NULL,
	"altas_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"bajas_count" integer DEFAULT 0 NOT NULL,
	"bajas_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"cambios_count" integer DEFAULT 0 NOT NULL,
	"cambios_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"continuing_count" integer DEFAULT 0 NOT NULL,
	"continuing_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"generated_by" uuid,
	"generated_at" timestamp with time zone NOT NULL,
	"issued_by" uuid,
	"issued_at" timestamp with time zone,
	"sent_on" date,
	"sent_channel" text,
	"sent_note" text,
	"sent_by" uuid,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "deduction_order_lines" ADD CONSTRAINT "deduction_order_lines_order_id_deduction_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."deduction_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deduction_order_lines" ADD CONSTRAINT "deduction_order_lines_credit_id_credits_id_fk" FOREIGN KEY ("credit_id") REFERENCES "public"."credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deduction_order_lines" ADD CONSTRAINT "deduction_order_lines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deduction_orders" ADD CONSTRAINT "deduction_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deduction_orders" ADD CONSTRAINT "deduction_orders_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deduction_orders" ADD CONSTRAINT "deduction_orders_generated_by_users_id_fk" FOREIGN KEY ("generated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deduction_orders" ADD CONSTRAINT "deduction_orders_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deduction_orders" ADD CONSTRAINT "deduction_orders_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deduction_orders" ADD CONSTRAINT "deduction_orders_baseline_id_deduction_orders_id_fk" FOREIGN KEY ("baseline_id") REFERENCES "public"."deduction_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deduction_orders" ADD CONSTRAINT "deduction_orders_supersedes_id_deduction_orders_id_fk" FOREIGN KEY ("supersedes_id") REFERENCES "public"."deduction_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deduction_order_lines_line_key" ON "deduction_order_lines" USING btree ("order_id","line");--> statement-breakpoint
CREATE INDEX "deduction_orders_company_payday_idx" ON "deduction_orders" USING btree ("company_id","payday","agreement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deduction_orders_draft_key" ON "deduction_orders" USING btree ("company_id","agreement_id","payday") WHERE status = 'borrador';--> statement-breakpoint
CREATE UNIQUE INDEX "deduction_orders_standing_key" ON "deduction_orders" USING btree ("company_id","agreement_id","payday") WHERE status in ('emitida', 'enviada');--> statement-breakpoint
-- Company scope for the cédulas, as in 0013: portal_app sees its transaction's company only, portal_all every company.
DO $$
DECLARE
  owned text;
  rule text := $rule$"company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid)$rule$;
BEGIN
  FOREACH owned IN ARRAY ARRAY['deduction_orders', 'deduction_order_lines'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', owned);
    EXECUTE format('CREATE POLICY company_scope ON %I TO portal_app USING (%s) WITH CHECK (%s)', owned, rule, rule);
    EXECUTE format('CREATE POLICY all_companies ON %I TO portal_all USING (true) WITH CHECK (true)', owned);
  END LOOP;
END $$;
