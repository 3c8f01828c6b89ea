CREATE TABLE "credit_label_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"credit_id" uuid NOT NULL,
	"label" text NOT NULL,
	"action" text NOT NULL,
	"job_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"actor_id" uuid,
	"actor_email" text,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "label_jobs" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"source" text NOT NULL,
	"file_name" text,
	"rows_total" integer NOT NULL,
	"applied" integer NOT NULL,
	"created_by" uuid,
	"created_by_email" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "label_jobs_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "labels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credit_label_events" ADD CONSTRAINT "credit_label_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_label_events" ADD CONSTRAINT "credit_label_events_credit_id_credits_id_fk" FOREIGN KEY ("credit_id") REFERENCES "public"."credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_label_events" ADD CONSTRAINT "credit_label_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_label_events" ADD CONSTRAINT "credit_label_events_company_id_job_id_label_jobs_company_id_id_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."label_jobs"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "label_jobs" ADD CONSTRAINT "label_jobs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "label_jobs" ADD CONSTRAINT "label_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labels" ADD CONSTRAINT "labels_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_label_events_credit_idx" ON "credit_label_events" USING btree ("company_id","credit_id","occurred_at");--> statement-breakpoint
CREATE INDEX "label_jobs_company_created_idx" ON "label_jobs" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "labels_company_name_key" ON "labels" USING btree ("company_id",lower("name"));--> statement-breakpoint
-- Company scope for the labels' tables, as in 0013: portal_app sees its transaction's company only, portal_all every company.
DO $$
DECLARE
  owned text;
  rule text := $rule$"company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid)$rule$;
BEGIN
  FOREACH owned IN ARRAY ARRAY['labels', 'label_jobs', 'credit_label_events'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', owned);
    EXECUTE format('CREATE POLICY company_scope ON %I TO portal_app USING (%s) WITH CHECK (%s)', owned, rule, rule);
    EXECUTE format('CREATE POLICY all_companies ON %I TO portal_all USING (true) WITH CHECK (true)', owned);
  END LOOP;
END $$;
