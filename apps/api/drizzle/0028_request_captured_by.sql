ALTER TABLE "requests" ADD COLUMN "captured_by" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
-- Who captured or changed each existing request, from what the portal kept: its capturer, then whoever edited it or
-- uploaded or replaced a document (the audit trail) and the author of the pre-request it came from.
UPDATE "requests" r SET "captured_by" = array(
  select who from (
    select r.created_by as who, null::timestamptz as at
    union all
    select a.actor_id, a.occurred_at from audit_events a
    where a.entity = 'request' and a.entity_id = r.id::text
      and a.action in ('request.update', 'request.document.upload', 'request.document.replace')
    union all
    select d.uploaded_by, d.uploaded_at from request_documents d where d.request_id = r.id
    union all
    select p.created_by, p.created_at from pre_requests p where p.id = r.pre_request_id
  ) touched
  where who is not null
  group by who
  order by min(at) nulls first
);
