-- The credits search by name counts without walking (issue 52, decision 0035). search_client_ids (0040) answered null
-- for over 1,000 matching clients, and the credits list then counted its credits by walking them to 1,001 (a client
-- read by key per credit: 6,000 of them for `maria`), most of a broad search's cost. Its successor answers only the
-- clients that have a credit (in their own company): null now means over 1,000 matching credits, so the list's count
-- is known to be past its cap without reading a credit. Its only caller is the credits search; the users and requests
-- functions already answer about the list's own rows. Scope, sample, cap and grants as in 0040.
DROP FUNCTION search_client_ids(text);--> statement-breakpoint
CREATE FUNCTION search_credit_client_ids(pattern text) RETURNS uuid[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  select case
    when (select count(*) from (select 1 from (select * from (select c.* from public.clients c
                 where current_setting('role') = 'portal_app'
                   and c.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select c.* from public.clients c where current_setting('role') = 'portal_all') sample limit 10000) c
                                 where translate(lower(c.first_names || ' ' || c.last_name_1 || ' ' || coalesce(c.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                and exists (select 1 from public.credits cr where cr.client_id = c.id and cr.company_id = c.company_id) limit 1001) common) > 1000 then null
    else (select case when count(*) > 1000 then null else coalesce(array_agg(id), '{}') end
          from (select c.id from (select c.* from public.clients c
                 where current_setting('role') = 'portal_app'
                   and c.company_id = nullif(current_setting('app.company_id', true), '')::uuid
                 union all
                 select c.* from public.clients c where current_setting('role') = 'portal_all') c
                where translate(lower(c.first_names || ' ' || c.last_name_1 || ' ' || coalesce(c.last_name_2, '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                like translate(lower(pattern), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun')
                and exists (select 1 from public.credits cr where cr.client_id = c.id and cr.company_id = c.company_id) limit 1001) matching)
  end
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION search_credit_client_ids(text) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION search_credit_client_ids(text) TO portal_app, portal_all;
