CREATE TABLE "report_definitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"dataset" text NOT NULL,
	"columns" jsonb NOT NULL,
	"filters" jsonb NOT NULL,
	"sort" jsonb,
	"format" text NOT NULL,
	"profile_ids" uuid[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_run_chunks" (
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"company_id" uuid NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "report_run_chunks_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "report_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"definition_id" uuid NOT NULL,
	"definition_version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"parameters" jsonb NOT NULL,
	"status" text DEFAULT 'en espera' NOT NULL,
	"rows_total" integer,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"file_name" text,
	"content_type" text,
	"size" integer,
	"duration_ms" integer,
	"error" text,
	"job_id" text,
	"requested_by" uuid,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "report_definitions" ADD CONSTRAINT "report_definitions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_definitions" ADD CONSTRAINT "report_definitions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_run_chunks" ADD CONSTRAINT "report_run_chunks_run_id_report_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."report_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_run_chunks" ADD CONSTRAINT "report_run_chunks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_runs" ADD CONSTRAINT "report_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_runs" ADD CONSTRAINT "report_runs_definition_id_report_definitions_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."report_definitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_runs" ADD CONSTRAINT "report_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_definitions_company_idx" ON "report_definitions" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "report_runs_requester_idx" ON "report_runs" USING btree ("company_id","requested_by","requested_at");--> statement-breakpoint
CREATE INDEX "report_runs_expiry_idx" ON "report_runs" USING btree ("expires_at");--> statement-breakpoint
-- Company scope for the reports' tables, as in 0014: portal_app sees its transaction's company only, portal_all every company.
DO $$
DECLARE
  owned text;
  rule text := $rule$"company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid)$rule$;
BEGIN
  FOREACH owned IN ARRAY ARRAY['report_definitions', 'report_runs', 'report_run_chunks'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', owned);
    EXECUTE format('CREATE POLICY company_scope ON %I TO portal_app USING (%s) WITH CHECK (%s)', owned, rule, rule);
    EXECUTE format('CREATE POLICY all_companies ON %I TO portal_all USING (true) WITH CHECK (true)', owned);
  END LOOP;
END $$;
