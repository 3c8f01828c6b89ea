ALTER TABLE "profiles" ADD COLUMN "company_id" uuid;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- A company's profiles are its own (issue: another company's administrator could read, rewrite and delete them).
-- A profile without a company is the portal's common catalogue: every company sees it, only SA (portal_all) changes it.
-- A company's administrator (portal_app) sees the common catalogue and its company's profiles, and writes only the latter.
ALTER TABLE "profiles" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY company_scope ON "profiles" FOR SELECT TO portal_app
  USING ("company_id" IS NULL OR "company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY company_scope_insert ON "profiles" FOR INSERT TO portal_app
  WITH CHECK ("company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY company_scope_update ON "profiles" FOR UPDATE TO portal_app
  USING ("company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid))
  WITH CHECK ("company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY company_scope_delete ON "profiles" FOR DELETE TO portal_app
  USING ("company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY all_companies ON "profiles" TO portal_all USING (true) WITH CHECK (true);--> statement-breakpoint
-- Existing profiles: one a company's administrator (not SA) created, and that only that company's users hold, becomes
-- that company's; the rest stay in the common catalogue.
UPDATE "profiles" p SET "company_id" = creator.company_id
FROM (
  select distinct on (a.entity_id) a.entity_id, u.company_id, held.role_code
  from audit_events a
  join users u on u.id = a.actor_id
  join profiles held on held.id = u.profile_id
  where a.entity = 'profile' and a.action = 'profile.create'
  order by a.entity_id, a.occurred_at
) creator
WHERE creator.entity_id = p.id::text
  AND creator.role_code <> 'SA'
  AND NOT EXISTS (select 1 from users h where h.profile_id = p.id and h.company_id <> creator.company_id);
