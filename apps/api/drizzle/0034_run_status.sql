-- One name for a tracked run's state in every run table (status), and how many times its work was started.
ALTER TABLE "payment_applications" RENAME COLUMN "state" TO "status";--> statement-breakpoint
ALTER TABLE "payment_applications" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "day_close_runs" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_runs" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;