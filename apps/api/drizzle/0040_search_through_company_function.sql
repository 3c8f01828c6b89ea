-- Searches by name through the trigram indexes for a company's users too (issue 52, decision 0034). Under row-level
-- security PostgreSQL tests the policy before a leaky condition (LIKE, lower, translate and || are not LEAKPROOF), so
-- a company user's search never reached the trigram indexes of 0038 and read every row of its company. These
-- functions run as their owner (the migrations' role, which owns the tables and so is not held by their policies),
-- apply the same scope as the policies themselves — the transaction's app.company_id for portal_app, every company for
-- portal_all (a transaction's SET LOCAL ROLE, which a SECURITY DEFINER function does not change), nothing otherwise —
-- and answer the matching rows' ids, at most 1,000 of them; beyond 1,000 they answer null (too many: the caller reads
-- the list's order instead, decision 0013's cap). The pattern is a LIKE pattern of the caller's text, read without case
-- or accents here as the indexes' expressions read each row.
-- A text many rows share is told first from a sample: over 1,000 matches among the scope's first 10,000 rows answer
-- null at once (a few milliseconds), where the trigram index would first gather every match (a quarter of a second for
-- `maria` among 1,000,000 clients); a rarer text goes to the index.
CREATE FUNCTION search_client_ids(pattern text) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  select case
    when (select count(*) from (select 1 from (select * from (select c.* from public.clients c
                 where current_setting('role') = 'portal_app'
                   and c.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select c.* from public.clients c where current_setting('role') = 'portal_all') sample limit 10000) c
                                 where translate(lower(c.first_names || ' ' || c.last_name_1 || ' ' || coalesce(c.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') limit 1001) common) > 1000 then null
    else (select case when count(*) > 1000 then null else coalesce(array_agg(id), '{}') end
          from (select c.id from (select c.* from public.clients c
                 where current_setting('role') = 'portal_app'
                   and c.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select c.* from public.clients c where current_setting('role') = 'portal_all') c
                where translate(lower(c.first_names || ' ' || c.last_name_1 || ' ' || coalesce(c.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') limit 1001) matching)
  end
$$;--> statement-breakpoint
CREATE FUNCTION search_request_ids(pattern text) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  select case
    when (select count(*) from (select 1 from (select * from (select r.* from public.requests r
                 where current_setting('role') = 'portal_app'
                   and r.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select r.* from public.requests r where current_setting('role') = 'portal_all') sample limit 10000) r
                                 where translate(lower(r.first_names || ' ' || r.last_name_1 || ' ' || coalesce(r.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') limit 1001) common) > 1000 then null
    else (select case when count(*) > 1000 then null else coalesce(array_agg(id), '{}') end
          from (select r.id from (select r.* from public.requests r
                 where current_setting('role') = 'portal_app'
                   and r.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select r.* from public.requests r where current_setting('role') = 'portal_all') r
                where translate(lower(r.first_names || ' ' || r.last_name_1 || ' ' || coalesce(r.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') limit 1001) matching)
  end
$$;--> statement-breakpoint
CREATE FUNCTION search_user_ids(pattern text) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  select case
    when (select count(*) from (select 1 from (select * from (select u.* from public.users u
                 where current_setting('role') = 'portal_app'
                   and u.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select u.* from public.users u where current_setting('role') = 'portal_all') sample limit 10000) u
                                 where translate(lower(u.email || ' ' || coalesce(u.name, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') limit 1001) common) > 1000 then null
    else (select case when count(*) > 1000 then null else coalesce(array_agg(id), '{}') end
          from (select u.id from (select u.* from public.users u
                 where current_setting('role') = 'portal_app'
                   and u.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select u.* from public.users u where current_setting('role') = 'portal_all') u
                where translate(lower(u.email || ' ' || coalesce(u.name, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') limit 1001) matching)
  end
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION search_client_ids(text), search_request_ids(text), search_user_ids(text) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION search_client_ids(text), search_request_ids(text), search_user_ids(text) TO portal_app, portal_all;
