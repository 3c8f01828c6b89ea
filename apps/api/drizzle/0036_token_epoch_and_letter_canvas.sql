ALTER TABLE "letter_templates" ADD COLUMN "canvas" "bytea";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "tokens_valid_after" timestamp with time zone;