-- Mail delivery (issue 49): each message keeps its kind, its HTML part and its delivery (status, attempts, next
-- attempt, the server's last answer); a message may carry files. Messages already written stay unsent: they were
-- written with no mail server, and their links have been passed on by hand or have expired.
CREATE TABLE "outbox_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "kind" text DEFAULT 'notice' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "status" text DEFAULT 'unsent' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "outbox_attachments" ADD CONSTRAINT "outbox_attachments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_attachments" ADD CONSTRAINT "outbox_attachments_message_id_outbox_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."outbox"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_attachments_message_idx" ON "outbox_attachments" USING btree ("company_id","message_id");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("next_attempt_at") WHERE "outbox"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "outbox_created_idx" ON "outbox" USING btree ("created_at","id");--> statement-breakpoint
-- Messages written before: their kind from the subject each writer used (idp/password-links.ts, users.service.ts).
UPDATE "outbox" SET "kind" = CASE
  WHEN "subject" = 'Tu acceso al portal de crédito' THEN 'invitation'
  WHEN "subject" = 'Restablece tu contraseña del portal' THEN 'password-reset'
  WHEN "subject" = 'Cambió el correo de tu acceso al portal' THEN 'email-change'
  ELSE 'notice' END;--> statement-breakpoint
-- Company scope for a message's files, as for the other company-owned tables (0017).
ALTER TABLE "outbox_attachments" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY company_scope ON "outbox_attachments" TO portal_app
  USING ("company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid))
  WITH CHECK ("company_id" = (select nullif(current_setting('app.company_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY all_companies ON "outbox_attachments" TO portal_all USING (true) WITH CHECK (true);
