-- Company scope without an OR in the policy. In 0005 one policy served both a company and "every company"
-- (current_setting('app.all_companies') = 'on' OR company_id = …); the planner cannot see through that OR, so it
-- estimated one row per table, lost its index plans and sorted whole tables for a page of 25 (an SA's Capturas list
-- ran at half its former throughput in bench/list-throughput.bench.ts). Now:
--   * portal_app sees exactly one company: company_id = the transaction's app.company_id, read once per query
--     (a scalar subquery, evaluated as an InitPlan), an equality the planner estimates and indexes like any other;
--   * every company (role SA, the system's own work) is a second role, portal_all, whose policy is simply true.
-- A transaction becomes portal_all with SET LOCAL ROLE (db/scope.ts); neither role bypasses row-level security.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'portal_all') THEN
    CREATE ROLE portal_all NOLOGIN NOBYPASSRLS;
  END IF;
END $$;--> statement-breakpoint
GRANT portal_all TO CURRENT_USER;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO portal_all;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO portal_all;--> statement-breakpoint
REVOKE UPDATE, DELETE ON "audit_events" FROM portal_all;--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO portal_all;--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO portal_all;--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO portal_all;--> statement-breakpoint
DO $$
DECLARE
  owned text;
  rule text := $rule$"company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid)$rule$;
BEGIN
  FOREACH owned IN ARRAY ARRAY['users', 'outbox', 'agreements', 'agreement_products', 'clients', 'pre_requests',
                              'requests', 'request_documents', 'credits', 'installments', 'expected_deductions'] LOOP
    EXECUTE format('DROP POLICY company_scope ON %I', owned);
    EXECUTE format('CREATE POLICY company_scope ON %I TO portal_app USING (%s) WITH CHECK (%s)', owned, rule, rule);
    EXECUTE format('CREATE POLICY all_companies ON %I TO portal_all USING (true) WITH CHECK (true)', owned);
  END LOOP;
END $$;--> statement-breakpoint
DROP POLICY company_scope ON "companies";--> statement-breakpoint
CREATE POLICY company_scope ON "companies" TO portal_app
  USING ("id" = (select nullif(current_setting('app.company_id', true), '')::uuid))
  WITH CHECK ("id" = (select nullif(current_setting('app.company_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY all_companies ON "companies" TO portal_all USING (true) WITH CHECK (true);
