-- Searches by name through the trigram indexes for a company's users too (issue 52, decision 0034). Under row-level
-- security PostgreSQL tests the policy before a leaky condition (LIKE, lower, translate and || are not LEAKPROOF), so
-- a company user's search never reached the trigram indexes of 0038 and read every row of its company. These
-- functions run as their owner (the migrations' role, which owns the tables and so is not held by their policies),
-- apply the same scope as the policies themselves — the transaction's app.company_id for portal_app, every company for
-- portal_all (a transaction's SET LOCAL ROLE, which a SECURITY DEFINER function does not change), nothing otherwise —
-- and answer the matching rows' ids, at most 1,000 of them; beyond 1,000 they answer null (too many: the caller reads
-- the list's order instead, decision 0013's cap). The pattern is a LIKE pattern of the caller's text, read without case
-- or accents here as the indexes' expressions read each row.
CREATE FUNCTION search_client_ids(pattern text) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  select case when count(*) > 1000 then null else coalesce(array_agg(id), '{}') end
  from (select c.id from public.clients c
        where translate(lower(c.first_names || ' ' || c.last_name_1 || ' ' || coalesce(c.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
          and case current_setting('role')
                when 'portal_all' then true
                when 'portal_app' then c.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                else false end
        limit 1001) matching
$$;--> statement-breakpoint
CREATE FUNCTION search_request_ids(pattern text) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  select case when count(*) > 1000 then null else coalesce(array_agg(id), '{}') end
  from (select r.id from public.requests r
        where translate(lower(r.first_names || ' ' || r.last_name_1 || ' ' || coalesce(r.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
          and case current_setting('role')
                when 'portal_all' then true
                when 'portal_app' then r.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                else false end
        limit 1001) matching
$$;--> statement-breakpoint
CREATE FUNCTION search_user_ids(pattern text) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  select case when count(*) > 1000 then null else coalesce(array_agg(id), '{}') end
  from (select u.id from public.users u
        where translate(lower(u.email || ' ' || coalesce(u.name, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
          and case current_setting('role')
                when 'portal_all' then true
                when 'portal_app' then u.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                else false end
        limit 1001) matching
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION search_client_ids(text), search_request_ids(text), search_user_ids(text) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION search_client_ids(text), search_request_ids(text), search_user_ids(text) TO portal_app, portal_all;
