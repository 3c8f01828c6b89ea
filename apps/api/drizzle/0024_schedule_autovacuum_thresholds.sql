-- Autovacuum after each payday's payment file instead of every eighth one. A file changes one installment and one
-- expected deduction of most credits: some 600,000 of 24,000,000 rows at a million credits, 2.5 %, under the default
-- 20 % threshold. Left for the next payday's close, their dead versions are pruned by its first read of each page, and
-- each pruned page is written whole to the WAL (the first change after a checkpoint): 26 s of a payday's close on
-- 1,000,000 credits (docs/decisions/0014-vacuum-between-paydays.md). At 1 %, autovacuum does that work in the
-- fortnight between two paydays, off the close's clock.
ALTER TABLE "installments" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01);--> statement-breakpoint
ALTER TABLE "expected_deductions" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01);
