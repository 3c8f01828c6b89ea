CREATE TABLE "clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"curp" text NOT NULL,
	"rfc" text,
	"first_names" text NOT NULL,
	"last_name_1" text NOT NULL,
	"last_name_2" text,
	"birth_date" date NOT NULL,
	"sex" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clients_curp_unique" UNIQUE("curp")
);
--> statement-breakpoint
CREATE TABLE "pre_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"client_id" uuid NOT NULL,
	"agreement_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"employee_number" text NOT NULL,
	"net_salary" numeric(14, 2) NOT NULL,
	"other_deductions" numeric(14, 2) NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"term" integer NOT NULL,
	"capacity" numeric(14, 2) NOT NULL,
	"installment" numeric(14, 2) NOT NULL,
	"cat" text NOT NULL,
	"result" text NOT NULL,
	"reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'borrador' NOT NULL,
	"created_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pre_requests_number_unique" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "pre_requests" ADD CONSTRAINT "pre_requests_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_requests" ADD CONSTRAINT "pre_requests_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_requests" ADD CONSTRAINT "pre_requests_product_id_agreement_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."agreement_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_requests" ADD CONSTRAINT "pre_requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pre_requests_client_idx" ON "pre_requests" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "pre_requests_created_by_idx" ON "pre_requests" USING btree ("created_by","created_at");