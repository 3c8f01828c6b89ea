DROP INDEX "requests_created_idx";--> statement-breakpoint
DROP INDEX "requests_company_idx";--> statement-breakpoint
CREATE INDEX "requests_created_idx" ON "requests" USING btree ("created_at","number");--> statement-breakpoint
CREATE INDEX "requests_company_idx" ON "requests" USING btree ("company_id","created_at","number");