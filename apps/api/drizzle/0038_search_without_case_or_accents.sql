DROP INDEX "clients_name_trgm_idx";--> statement-breakpoint
DROP INDEX "users_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "clients_search_trgm_idx" ON "clients" USING gin (translate(lower("first_names" || ' ' || "last_name_1" || ' ' || coalesce("last_name_2", '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "requests_search_trgm_idx" ON "requests" USING gin (translate(lower("first_names" || ' ' || "last_name_1" || ' ' || coalesce("last_name_2", '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin (translate(lower("email" || ' ' || coalesce("name", '')), 'áéíóúüñÁÉÍÓÚÜÑ', 'aeiouunaeiouun') gin_trgm_ops);