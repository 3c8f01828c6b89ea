CREATE TABLE "agreement_products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agreement_id" uuid NOT NULL,
	"name" text NOT NULL,
	"annual_rate_pct" numeric(9, 4) NOT NULL,
	"iva_rate_pct" numeric(7, 4) NOT NULL,
	"opening_fee_pct" numeric(7, 4) NOT NULL,
	"opening_fee_financed" boolean NOT NULL,
	"terms" integer[] NOT NULL,
	"min_amount" numeric(14, 2) NOT NULL,
	"max_amount" numeric(14, 2) NOT NULL,
	"max_age_at_end" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agreements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"employer_name" text NOT NULL,
	"employer_rfc" text NOT NULL,
	"sector" text NOT NULL,
	"frequency" text NOT NULL,
	"max_deduction_pct" numeric(7, 4) NOT NULL,
	"remittance_lag_days" integer NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	"contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"layout" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agreement_products" ADD CONSTRAINT "agreement_products_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agreement_products_agreement_idx" ON "agreement_products" USING btree ("agreement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "agreements_code_key" ON "agreements" USING btree (upper("code"));--> statement-breakpoint
CREATE INDEX "agreements_company_idx" ON "agreements" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "agreements_name_trgm_idx" ON "agreements" USING gin ("name" gin_trgm_ops);