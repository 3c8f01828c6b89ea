-- A payment's allocation and what it changed (`before`) are written and read whole, never queried inside: json keeps
-- the text it gets, where jsonb converted every document on insert. A 100,000-row payment file inserts 100,000 of
-- each: 2,000 payments took 370 ms as jsonb and 200 ms as json (bench/payment-file.bench.ts). One statement, so the
-- table is rewritten once.
ALTER TABLE "payments" ALTER COLUMN "allocation" SET DATA TYPE json, ALTER COLUMN "before" SET DATA TYPE json;
