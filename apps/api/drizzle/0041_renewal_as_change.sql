ALTER TABLE "agreements" ADD COLUMN "renewal_as_change" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "deduction_order_lines" ADD COLUMN "replaces_credit_id" uuid;--> statement-breakpoint
ALTER TABLE "deduction_order_lines" ADD COLUMN "replaces_credit_number" integer;--> statement-breakpoint
ALTER TABLE "deduction_order_lines" ADD CONSTRAINT "deduction_order_lines_replaces_credit_id_credits_id_fk" FOREIGN KEY ("replaces_credit_id") REFERENCES "public"."credits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deduction_order_lines_replaces_idx" ON "deduction_order_lines" USING btree ("order_id","replaces_credit_id") WHERE replaces_credit_id is not null;