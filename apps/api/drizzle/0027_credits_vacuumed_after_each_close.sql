-- Autovacuum after each day close instead of every other one. A close rewrites the rows of the credits it ages (the
-- 135,000 late ones of a million on an ordinary day: 13.5 %, under the default 20 % threshold) and, on a payday, the
-- next discount date of the rest; each changed page loses its all-visible mark, and the credits list's totals bar,
-- an index-only scan of `credits_company_totals_idx`, then visits the credits themselves: 351 ms for the 585,000
-- vigentes after an ordinary close, 74 ms once vacuumed (2.0 s of vacuum). At 1 %, autovacuum passes within its
-- next round (a minute) after each close and each payment file.
ALTER TABLE "credits" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01);
