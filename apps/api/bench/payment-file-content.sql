-- What an application of a payment file leaves in the tables, as one checksum per table (its rows counted and their
-- md5s summed, so that neither the rows' order nor a size limit enters), without generated ids and timestamps: two
-- builds applying the same file to two copies of one portfolio must print the same lines (the money did not move).
-- docs/measurements.md, stop 64.
--
--   psql -h 127.0.0.1 -U postgres -d <copy> -At -f apps/api/bench/payment-file-content.sql
select 'installments', count(*) || ':' || sum(('x' || left(md5(t::text), 15))::bit(60)::bigint) from (select credit_id, number, principal, interest, iva, payment, balance, paid_principal, paid_interest, paid_iva, moratory_interest, moratory_iva, fees, fees_iva, paid_moratory_interest, paid_moratory_iva, paid_fees, paid_fees_iva, accrues_from, accrual_through, accrual_cent_days, outstanding, days, due_date from installments) t
union all select 'credits', count(*) || ':' || sum(('x' || left(md5(t::text), 15))::bit(60)::bigint) from (select id, status, outstanding_balance, overdue_balance, days_past_due, aging_bucket, installment, credit_balance, next_discount_date, liquidation_reason from credits) t
union all select 'deductions', count(*) || ':' || sum(('x' || left(md5(t::text), 15))::bit(60)::bigint) from (select credit_id, period, discount_date, amount, state, open from expected_deductions) t
union all select 'payments', count(*) || ':' || sum(('x' || left(md5(t::text), 15))::bit(60)::bigint) from (select credit_id, file_line, value_date, amount, principal, interest, iva, moratory_interest, moratory_iva, fees, fees_iva, overpayment, allocation::text, before::text, status from payments) t
union all select 'file_rows', count(*) || ':' || sum(('x' || left(md5(t::text), 15))::bit(60)::bigint) from (select line, outcome, message, credit_id, amount from payment_file_rows) t
union all select 'files', count(*) || ':' || sum(('x' || left(md5(t::text), 15))::bit(60)::bigint) from (select status, rows_total, rows_valid, rows_rejected, rows_overpaying, rows_paid_elsewhere, amount_total, amount_valid, amount_rejected, expected_amount, expected_count, missing_count, amount_applied, overpayment from payment_files) t;
