-- The searches' trigram indexes keep no pending list (issue 52, decision 0038). With GIN's default (fastupdate) the
-- rows written since the last VACUUM wait in an unsorted list that every search through the index reads whole; on the
-- load test's 20,000 users (written after the index, never vacuumed) it held 2,554 entries on 230 pages, and the planner,
-- charging for them, planned the users search's page as a read of every user and a sort (8-16 ms under load) instead
-- of the index (2 ms). Without the list each written row puts its trigrams in the index at once (a fraction of a
-- millisecond per user, client or request). The option changes the catalog only; the entries already pending are moved
-- into the index here (gin_clean_pending_list, the index's owner: the migrations' role), nothing is rebuilt.
ALTER INDEX "users_search_trgm_idx" SET (fastupdate = false);--> statement-breakpoint
ALTER INDEX "users_email_trgm_idx" SET (fastupdate = false);--> statement-breakpoint
ALTER INDEX "clients_search_trgm_idx" SET (fastupdate = false);--> statement-breakpoint
ALTER INDEX "requests_search_trgm_idx" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('users_search_trgm_idx'), gin_clean_pending_list('users_email_trgm_idx'),
  gin_clean_pending_list('clients_search_trgm_idx'), gin_clean_pending_list('requests_search_trgm_idx');
