-- Clients and requests keep their search text (issue 52, decision 0038), as users do since 0044: search_text is the
-- full name as the searches read it (decision 0031's expression), a stored generated column, and the trigram indexes
-- move onto it. The search functions' sample compared translate(lower(…)) of some 600 rows for a common name (3 µs
-- a row), and computed the pattern's once per row compared; they compare the column now, read the pattern once and,
-- as 0046 made the users', are PL/pgSQL, which keeps their plan for the connection. Their scope, sample, cap and
-- grants (0043) are unchanged. The two tables are rewritten: on the load test's 1,000,000 clients and requests,
-- seconds each (docs/production-figures.md).
DROP INDEX "clients_search_trgm_idx";--> statement-breakpoint
DROP INDEX "requests_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "search_text" text GENERATED ALWAYS AS (translate(lower("first_names" || ' ' || "last_name_1" || ' ' || coalesce("last_name_2", '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "search_text" text GENERATED ALWAYS AS (translate(lower("first_names" || ' ' || "last_name_1" || ' ' || coalesce("last_name_2", '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "clients_search_trgm_idx" ON "clients" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "requests_search_trgm_idx" ON "requests" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_credit_client_ids(pattern text) RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
begin
  return (
    select case
      when (select count(*) from (select 1 from (select * from (select c.* from public.clients c
                   where current_setting('role') = 'portal_app'
                     and c.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                   union all
                   select c.* from public.clients c where current_setting('role') = 'portal_all') sample limit 2000) c
                                   where c.search_text
                  like (select translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun'))
                  and exists (select 1 from public.credits cr where cr.client_id = c.id and cr.company_id = c.company_id) limit 101) common) > 100 then null
      else (select case when count(*) > 100 then null else coalesce(array_agg(id), '{}') end
            from (select c.id from (select c.* from public.clients c
                   where current_setting('role') = 'portal_app'
                     and c.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                   union all
                   select c.* from public.clients c where current_setting('role') = 'portal_all') c
                  where c.search_text
                  like (select translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun'))
                  and exists (select 1 from public.credits cr where cr.client_id = c.id and cr.company_id = c.company_id) limit 101) matching)
    end
  );
end
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_request_ids(pattern text) RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
begin
  return (
    select case
      when (select count(*) from (select 1 from (select * from (select r.* from public.requests r
                   where current_setting('role') = 'portal_app'
                     and r.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                   union all
                   select r.* from public.requests r where current_setting('role') = 'portal_all') sample limit 2000) r
                                   where r.search_text
                  like (select translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')) limit 101) common) > 100 then null
      else (select case when count(*) > 100 then null else coalesce(array_agg(id), '{}') end
            from (select r.id from (select r.* from public.requests r
                   where current_setting('role') = 'portal_app'
                     and r.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                   union all
                   select r.* from public.requests r where current_setting('role') = 'portal_all') r
                  where r.search_text
                  like (select translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')) limit 101) matching)
    end
  );
end
$$;
