DROP INDEX "credits_company_employee_idx";--> statement-breakpoint
DROP INDEX "clients_company_rfc_idx";--> statement-breakpoint
CREATE INDEX "credits_employee_idx" ON "credits" USING btree ("employee_number");--> statement-breakpoint
CREATE INDEX "clients_curp_idx" ON "clients" USING btree ("curp");--> statement-breakpoint
CREATE INDEX "clients_rfc_idx" ON "clients" USING btree ("rfc");