-- What the clerk is told before "Aplicar": how many accepted rows pay their credit off with a sobrepago (the rest kept
-- as saldo a favor), and how many pay a deduction another applied file of the agreement and date already received.
-- Kept with the file's other figures (summarize), and counted here for the files already loaded.
ALTER TABLE "payment_files" ADD COLUMN "rows_overpaying" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_files" ADD COLUMN "rows_paid_elsewhere" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "payment_files" f SET
  "rows_overpaying" = (SELECT count(*) FROM "payment_file_rows" r WHERE r.file_id = f.id AND r.outcome = 'sobrepago'),
  "rows_paid_elsewhere" = (
    SELECT count(*) FROM "payment_file_rows" r
    WHERE r.file_id = f.id AND r.outcome IN ('válido', 'sobrepago') AND r.credit_id IN (
      SELECT r2.credit_id FROM "payment_files" f2 JOIN "payment_file_rows" r2 ON r2.file_id = f2.id
      WHERE f2.agreement_id = f.agreement_id AND f2.discount_date = f.discount_date AND f2.status = 'aplicado' AND f2.id <> f.id
        AND r2.outcome IN ('válido', 'sobrepago')));
