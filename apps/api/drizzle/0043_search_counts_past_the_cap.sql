-- A broad search by name answers without counting (issue 52, decision 0035). The functions of 0040 told a common name
-- from over 1,000 matches, which costs reading some 6,000 rows for `maria` (one name in six) and, for credits, a walk of
-- 1,001 credits to count them. Here they answer at most 100 ids, and null for more: over 100 matches among the scope's
-- first 2,000 rows (the sample: 10,000 in 0040, which a rare name read whole, 25-31 ms as Demo Cartera, 6-11 ms now)
-- or through the trigram index. The list then answers "more than 100" (the contract's
-- SEARCH_COUNT_CAP) without a count, unless another filter narrows it. search_client_ids becomes
-- search_credit_client_ids: only clients with a credit in their own company, so that its null means over 100 credits.
-- Scope, sample and grants as in 0040.
DROP FUNCTION search_client_ids(text);--> statement-breakpoint
CREATE FUNCTION search_credit_client_ids(pattern text) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  select case
    when (select count(*) from (select 1 from (select * from (select c.* from public.clients c
                 where current_setting('role') = 'portal_app'
                   and c.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select c.* from public.clients c where current_setting('role') = 'portal_all') sample limit 2000) c
                                 where translate(lower(c.first_names || ' ' || c.last_name_1 || ' ' || coalesce(c.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                and exists (select 1 from public.credits cr where cr.client_id = c.id and cr.company_id = c.company_id) limit 101) common) > 100 then null
    else (select case when count(*) > 100 then null else coalesce(array_agg(id), '{}') end
          from (select c.id from (select c.* from public.clients c
                 where current_setting('role') = 'portal_app'
                   and c.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select c.* from public.clients c where current_setting('role') = 'portal_all') c
                where translate(lower(c.first_names || ' ' || c.last_name_1 || ' ' || coalesce(c.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                and exists (select 1 from public.credits cr where cr.client_id = c.id and cr.company_id = c.company_id) limit 101) matching)
  end
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_request_ids(pattern text) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  select case
    when (select count(*) from (select 1 from (select * from (select r.* from public.requests r
                 where current_setting('role') = 'portal_app'
                   and r.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select r.* from public.requests r where current_setting('role') = 'portal_all') sample limit 2000) r
                                 where translate(lower(r.first_names || ' ' || r.last_name_1 || ' ' || coalesce(r.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') limit 101) common) > 100 then null
    else (select case when count(*) > 100 then null else coalesce(array_agg(id), '{}') end
          from (select r.id from (select r.* from public.requests r
                 where current_setting('role') = 'portal_app'
                   and r.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select r.* from public.requests r where current_setting('role') = 'portal_all') r
                where translate(lower(r.first_names || ' ' || r.last_name_1 || ' ' || coalesce(r.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') limit 101) matching)
  end
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_user_ids(pattern text) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  select case
    when (select count(*) from (select 1 from (select * from (select u.* from public.users u
                 where current_setting('role') = 'portal_app'
                   and u.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select u.* from public.users u where current_setting('role') = 'portal_all') sample limit 2000) u
                                 where translate(lower(u.email || ' ' || coalesce(u.name, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') limit 101) common) > 100 then null
    else (select case when count(*) > 100 then null else coalesce(array_agg(id), '{}') end
          from (select u.id from (select u.* from public.users u
                 where current_setting('role') = 'portal_app'
                   and u.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select u.* from public.users u where current_setting('role') = 'portal_all') u
                where translate(lower(u.email || ' ' || coalesce(u.name, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') limit 101) matching)
  end
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION search_credit_client_ids(text) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION search_credit_client_ids(text) TO portal_app, portal_all;
