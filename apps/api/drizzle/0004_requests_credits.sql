CREATE TABLE "credits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"request_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"agreement_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"employee_number" text NOT NULL,
	"product_name" text NOT NULL,
	"annual_rate_pct" numeric(9, 4) NOT NULL,
	"iva_rate_pct" numeric(7, 4) NOT NULL,
	"opening_fee_pct" numeric(7, 4) NOT NULL,
	"opening_fee_financed" boolean NOT NULL,
	"frequency" text NOT NULL,
	"term" integer NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"opening_fee" numeric(14, 2) NOT NULL,
	"principal" numeric(14, 2) NOT NULL,
	"net_disbursed" numeric(14, 2) NOT NULL,
	"installment" numeric(14, 2) NOT NULL,
	"cat" text NOT NULL,
	"clabe" text NOT NULL,
	"disbursement_date" date NOT NULL,
	"first_due_date" date NOT NULL,
	"last_due_date" date NOT NULL,
	"status" text DEFAULT 'vigente' NOT NULL,
	"days_past_due" integer DEFAULT 0 NOT NULL,
	"disbursed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credits_number_unique" UNIQUE("number"),
	CONSTRAINT "credits_request_id_unique" UNIQUE("request_id")
);
--> statement-breakpoint
CREATE TABLE "expected_deductions" (
	"credit_id" uuid NOT NULL,
	"period" integer NOT NULL,
	"discount_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"state" text DEFAULT 'esperado' NOT NULL,
	CONSTRAINT "expected_deductions_credit_id_period_pk" PRIMARY KEY("credit_id","period")
);
--> statement-breakpoint
CREATE TABLE "installments" (
	"credit_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"due_date" date NOT NULL,
	"principal" numeric(14, 2) NOT NULL,
	"interest" numeric(14, 2) NOT NULL,
	"iva" numeric(14, 2) NOT NULL,
	"payment" numeric(14, 2) NOT NULL,
	"balance" numeric(14, 2) NOT NULL,
	"paid_principal" numeric(14, 2) DEFAULT '0' NOT NULL,
	"paid_interest" numeric(14, 2) DEFAULT '0' NOT NULL,
	"paid_iva" numeric(14, 2) DEFAULT '0' NOT NULL,
	"status" text DEFAULT 'pendiente' NOT NULL,
	CONSTRAINT "installments_credit_id_number_pk" PRIMARY KEY("credit_id","number")
);
--> statement-breakpoint
CREATE TABLE "request_documents" (
	"request_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_by" uuid,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_documents_request_id_kind_pk" PRIMARY KEY("request_id","kind")
);
--> statement-breakpoint
CREATE TABLE "requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"pre_request_id" uuid,
	"client_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"agreement_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"rfc" text,
	"first_names" text NOT NULL,
	"last_name_1" text NOT NULL,
	"last_name_2" text,
	"employee_number" text NOT NULL,
	"net_salary" numeric(14, 2) NOT NULL,
	"other_deductions" numeric(14, 2) NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"term" integer NOT NULL,
	"street" text NOT NULL,
	"exterior_number" text NOT NULL,
	"interior_number" text DEFAULT '' NOT NULL,
	"neighborhood" text NOT NULL,
	"municipality" text NOT NULL,
	"state" text NOT NULL,
	"postal_code" text NOT NULL,
	"phone" text NOT NULL,
	"email" text NOT NULL,
	"references" jsonb NOT NULL,
	"clabe" text NOT NULL,
	"simulation" jsonb NOT NULL,
	"installment" numeric(14, 2) NOT NULL,
	"status" text DEFAULT 'capturada' NOT NULL,
	"rejection_reason" text,
	"cancellation_reason" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "requests_number_unique" UNIQUE("number"),
	CONSTRAINT "requests_pre_request_id_unique" UNIQUE("pre_request_id")
);
--> statement-breakpoint
ALTER TABLE "pre_requests" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_product_id_agreement_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."agreement_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_disbursed_by_users_id_fk" FOREIGN KEY ("disbursed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expected_deductions" ADD CONSTRAINT "expected_deductions_credit_id_credits_id_fk" FOREIGN KEY ("credit_id") REFERENCES "public"."credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installments" ADD CONSTRAINT "installments_credit_id_credits_id_fk" FOREIGN KEY ("credit_id") REFERENCES "public"."credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_documents" ADD CONSTRAINT "request_documents_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_documents" ADD CONSTRAINT "request_documents_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_pre_request_id_pre_requests_id_fk" FOREIGN KEY ("pre_request_id") REFERENCES "public"."pre_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_product_id_agreement_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."agreement_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credits_client_idx" ON "credits" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "credits_agreement_idx" ON "credits" USING btree ("agreement_id","employee_number");--> statement-breakpoint
CREATE INDEX "credits_company_idx" ON "credits" USING btree ("company_id","status");--> statement-breakpoint
CREATE INDEX "expected_deductions_date_idx" ON "expected_deductions" USING btree ("discount_date","state");--> statement-breakpoint
CREATE INDEX "installments_due_idx" ON "installments" USING btree ("due_date");--> statement-breakpoint
CREATE INDEX "requests_status_idx" ON "requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "requests_created_idx" ON "requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "requests_agreement_idx" ON "requests" USING btree ("agreement_id","created_at");--> statement-breakpoint
CREATE INDEX "requests_client_idx" ON "requests" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "requests_company_idx" ON "requests" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "pre_requests_sent_idx" ON "pre_requests" USING btree ("sent_at") WHERE status = 'enviada';