-- Company scope enforced by the database (docs/decisions/0006): every company-owned table carries company_id and a
-- row-level security policy; the API runs as portal_app, which the policies apply to, and sets the user's company
-- (or all companies, for role SA and the system's own work) for each transaction.

-- 1. company_id on the company-owned tables that reached it only through a parent row, filled from that parent.
ALTER TABLE "agreement_products" ADD COLUMN "company_id" uuid;--> statement-breakpoint
UPDATE "agreement_products" p SET "company_id" = a."company_id" FROM "agreements" a WHERE a."id" = p."agreement_id";--> statement-breakpoint
ALTER TABLE "pre_requests" ADD COLUMN "company_id" uuid;--> statement-breakpoint
UPDATE "pre_requests" p SET "company_id" = a."company_id" FROM "agreements" a WHERE a."id" = p."agreement_id";--> statement-breakpoint
ALTER TABLE "request_documents" ADD COLUMN "company_id" uuid;--> statement-breakpoint
UPDATE "request_documents" d SET "company_id" = r."company_id" FROM "requests" r WHERE r."id" = d."request_id";--> statement-breakpoint
ALTER TABLE "installments" ADD COLUMN "company_id" uuid;--> statement-breakpoint
UPDATE "installments" i SET "company_id" = c."company_id" FROM "credits" c WHERE c."id" = i."credit_id";--> statement-breakpoint
ALTER TABLE "expected_deductions" ADD COLUMN "company_id" uuid;--> statement-breakpoint
UPDATE "expected_deductions" e SET "company_id" = c."company_id" FROM "credits" c WHERE c."id" = e."credit_id";--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "company_id" uuid;--> statement-breakpoint
UPDATE "outbox" o SET "company_id" = u."company_id" FROM "users" u WHERE lower(u."email") = lower(o."to_email");--> statement-breakpoint
-- A message to an address that is no longer a user's has no company to show it to, and nothing to act on.
DELETE FROM "outbox" WHERE "company_id" IS NULL;--> statement-breakpoint

-- 2. Clients become per company: each lender keeps its own copy of a person's data. A client that two companies
--    referenced is copied into the second one and that company's rows point at the copy.
ALTER TABLE "clients" DROP CONSTRAINT "clients_curp_unique";--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "company_id" uuid;--> statement-breakpoint
CREATE TEMPORARY TABLE "client_refs" AS
  SELECT DISTINCT "client_id", "company_id" FROM (
    SELECT "client_id", "company_id" FROM "pre_requests"
    UNION ALL SELECT "client_id", "company_id" FROM "requests"
    UNION ALL SELECT "client_id", "company_id" FROM "credits"
  ) refs;--> statement-breakpoint
UPDATE "clients" c SET "company_id" = f."company_id"
  FROM (SELECT DISTINCT ON ("client_id") "client_id", "company_id" FROM "client_refs" ORDER BY "client_id", "company_id") f
  WHERE f."client_id" = c."id";--> statement-breakpoint
INSERT INTO "clients" ("id", "company_id", "curp", "rfc", "first_names", "last_name_1", "last_name_2", "birth_date", "sex", "created_at", "updated_at")
  SELECT gen_random_uuid(), r."company_id", c."curp", c."rfc", c."first_names", c."last_name_1", c."last_name_2", c."birth_date", c."sex", c."created_at", c."updated_at"
  FROM "client_refs" r JOIN "clients" c ON c."id" = r."client_id" WHERE r."company_id" <> c."company_id";--> statement-breakpoint
UPDATE "pre_requests" t SET "client_id" = copy."id" FROM "clients" original, "clients" copy
  WHERE t."client_id" = original."id" AND original."company_id" <> t."company_id" AND copy."curp" = original."curp" AND copy."company_id" = t."company_id";--> statement-breakpoint
UPDATE "requests" t SET "client_id" = copy."id" FROM "clients" original, "clients" copy
  WHERE t."client_id" = original."id" AND original."company_id" <> t."company_id" AND copy."curp" = original."curp" AND copy."company_id" = t."company_id";--> statement-breakpoint
UPDATE "credits" t SET "client_id" = copy."id" FROM "clients" original, "clients" copy
  WHERE t."client_id" = original."id" AND original."company_id" <> t."company_id" AND copy."curp" = original."curp" AND copy."company_id" = t."company_id";--> statement-breakpoint
DROP TABLE "client_refs";--> statement-breakpoint
DELETE FROM "clients" WHERE "company_id" IS NULL;--> statement-breakpoint

ALTER TABLE "agreement_products" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "expected_deductions" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "installments" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "pre_requests" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "request_documents" ALTER COLUMN "company_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agreement_products" ADD CONSTRAINT "agreement_products_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expected_deductions" ADD CONSTRAINT "expected_deductions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installments" ADD CONSTRAINT "installments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_requests" ADD CONSTRAINT "pre_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_documents" ADD CONSTRAINT "request_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clients_company_curp_key" ON "clients" USING btree ("company_id","curp");--> statement-breakpoint
CREATE INDEX "pre_requests_company_idx" ON "pre_requests" USING btree ("company_id","created_at");--> statement-breakpoint

-- 3. The role the API runs as. Not the tables' owner and without BYPASSRLS, so every policy applies to it.
--    Audit events are append-only for it: it may read and add them, never change or delete one.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'portal_app') THEN
    CREATE ROLE portal_app NOLOGIN NOBYPASSRLS;
  END IF;
END $$;--> statement-breakpoint
GRANT portal_app TO CURRENT_USER;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO portal_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO portal_app;--> statement-breakpoint
REVOKE UPDATE, DELETE ON "audit_events" FROM portal_app;--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO portal_app;--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO portal_app;--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO portal_app;--> statement-breakpoint

-- 4. One policy per company-owned table: the transaction's company, or every company when it says so.
--    A later migration that adds a table with company_id must add the same policy (checkCompanyIsolation refuses
--    to start the API otherwise, and a test checks it).
DO $$
DECLARE
  owned text;
  rule text := $rule$"company_id" = nullif(current_setting('app.company_id', true), '')::uuid OR current_setting('app.all_companies', true) = 'on'$rule$;
BEGIN
  FOREACH owned IN ARRAY ARRAY['users', 'outbox', 'agreements', 'agreement_products', 'clients', 'pre_requests',
                              'requests', 'request_documents', 'credits', 'installments', 'expected_deductions'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', owned);
    EXECUTE format('CREATE POLICY company_scope ON %I TO portal_app USING (%s) WITH CHECK (%s)', owned, rule, rule);
  END LOOP;
END $$;
--> statement-breakpoint
-- A company sees itself in the companies catalogue (the user and agreement forms' choice); SA sees them all.
ALTER TABLE "companies" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY company_scope ON "companies" TO portal_app
  USING ("id" = nullif(current_setting('app.company_id', true), '')::uuid OR current_setting('app.all_companies', true) = 'on')
  WITH CHECK ("id" = nullif(current_setting('app.company_id', true), '')::uuid OR current_setting('app.all_companies', true) = 'on');
