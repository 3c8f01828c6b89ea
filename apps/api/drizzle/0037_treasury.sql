CREATE TABLE "payment_batch_lines" (
	"batch_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"tracking_key" text NOT NULL,
	"beneficiary" text NOT NULL,
	"beneficiary_id" text,
	"clabe" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"concept" text NOT NULL,
	"reference" text NOT NULL,
	"result" text DEFAULT 'pendiente' NOT NULL,
	"reason" text,
	"settled_on" date,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "payment_batch_lines_batch_id_order_id_pk" PRIMARY KEY("batch_id","order_id")
);
--> statement-breakpoint
CREATE TABLE "payment_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"company_id" uuid NOT NULL,
	"status" text DEFAULT 'por autorizar' NOT NULL,
	"source_account" text NOT NULL,
	"order_count" integer NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"generated_by" uuid,
	"generated_at" timestamp with time zone NOT NULL,
	"authorized_by" uuid,
	"authorized_at" timestamp with time zone,
	CONSTRAINT "payment_batches_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "payment_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'por enviar' NOT NULL,
	"credit_id" uuid NOT NULL,
	"refund_id" uuid,
	"beneficiary" text NOT NULL,
	"beneficiary_id" text,
	"clabe" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"concept" text NOT NULL,
	"reference" text NOT NULL,
	"batch_id" uuid,
	"last_rejection_reason" text,
	"rejections" integer DEFAULT 0 NOT NULL,
	"settled_on" date,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_orders_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"company_id" uuid NOT NULL,
	"credit_id" uuid NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"clabe" text NOT NULL,
	"clabe_source" text NOT NULL,
	"evidence" text,
	"status" text DEFAULT 'solicitada' NOT NULL,
	"decline_reason" text,
	"requested_by" uuid,
	"requested_at" timestamp with time zone NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	CONSTRAINT "refunds_number_unique" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "payment_batch_lines" ADD CONSTRAINT "payment_batch_lines_batch_id_payment_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payment_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batch_lines" ADD CONSTRAINT "payment_batch_lines_order_id_payment_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batch_lines" ADD CONSTRAINT "payment_batch_lines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batch_lines" ADD CONSTRAINT "payment_batch_lines_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batches" ADD CONSTRAINT "payment_batches_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batches" ADD CONSTRAINT "payment_batches_generated_by_users_id_fk" FOREIGN KEY ("generated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_batches" ADD CONSTRAINT "payment_batches_authorized_by_users_id_fk" FOREIGN KEY ("authorized_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_credit_id_credits_id_fk" FOREIGN KEY ("credit_id") REFERENCES "public"."credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_credit_id_credits_id_fk" FOREIGN KEY ("credit_id") REFERENCES "public"."credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_batch_lines_line_key" ON "payment_batch_lines" USING btree ("batch_id","line");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_batch_lines_tracking_key" ON "payment_batch_lines" USING btree ("tracking_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_batch_lines_open_key" ON "payment_batch_lines" USING btree ("order_id") WHERE result = 'pendiente';--> statement-breakpoint
CREATE INDEX "payment_batches_company_idx" ON "payment_batches" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "payment_orders_company_status_idx" ON "payment_orders" USING btree ("company_id","status","number");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_orders_disbursement_key" ON "payment_orders" USING btree ("credit_id") WHERE kind = 'dispersión';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_orders_refund_key" ON "payment_orders" USING btree ("refund_id");--> statement-breakpoint
CREATE INDEX "refunds_company_credit_idx" ON "refunds" USING btree ("company_id","credit_id");--> statement-breakpoint
-- Company scope for Tesorería, as in 0013: portal_app sees its transaction's company only, portal_all every company.
DO $$
DECLARE
  owned text;
  rule text := $rule$"company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid)$rule$;
BEGIN
  FOREACH owned IN ARRAY ARRAY['refunds', 'payment_orders', 'payment_batches', 'payment_batch_lines'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', owned);
    EXECUTE format('CREATE POLICY company_scope ON %I TO portal_app USING (%s) WITH CHECK (%s)', owned, rule, rule);
    EXECUTE format('CREATE POLICY all_companies ON %I TO portal_all USING (true) WITH CHECK (true)', owned);
  END LOOP;
END $$;
