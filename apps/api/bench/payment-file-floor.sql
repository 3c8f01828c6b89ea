-- The floor under issue 16's 10 s: the writes and the read that any application of the benchmark's 100,000-row file
-- must make on this data model, each as one set-based statement with nothing computed, in one transaction that is
-- rolled back. No parsing, matching, allocation, aging or figures: what is left is what PostgreSQL itself takes for the
-- rows such a file changes, on the 1,000,000-credit portfolio of bench/portfolio.bench.ts (a copy of it, warm).
--
--   psql -h 127.0.0.1 -U postgres -d <copy> -v payday=2026-11-23 -f apps/api/bench/payment-file-floor.sql
--
-- The credits are the benchmark's: the first 100,000 by folio with an installment due on the payday. The JSON written
-- with each payment is the size the application writes (allocation 286 characters, before 851, on average).
-- `-v rows=N` takes N credits instead of 100,000 (bench/payment-file.bench.ts runs it with its file's row count).
\set ON_ERROR_STOP on
\if :{?rows}
\else
\set rows 100000
\endif
\timing on
begin;
set local work_mem = '256MB';
-- By key, one row at a time, as the application writes: joined by hashing, the planner reads the whole 24,000,000-row
-- schedule table for 150,000 of its rows.
set local enable_hashjoin = off;
set local enable_mergejoin = off;

create temp table paid on commit drop as
  select c.id as credit_id, c.company_id, c.agreement_id, i.number as period, i.payment as amount
  from credits c join installments i on i.credit_id = c.id and i.due_date = :'payday'
  where c.status <> 'liquidado' and c.outstanding_balance > 0
  order by c.number
  limit :rows;
analyze paid;
-- What comes after this line is the floor (bench/payment-file.bench.ts sums the statements' times from it).
\echo floor:start

-- The upload: the file and its 100,000 rows, each with its outcome.
insert into payment_files (company_id, agreement_id, discount_date, file_name, content_type, size, sha256, content, encoding, layout, status)
  select company_id, agreement_id, :'payday', 'piso.csv', 'text/csv', 0, md5(random()::text), '', 'utf-8', '{}', 'validado' from paid limit 1
  returning id as file \gset
insert into payment_file_rows (file_id, line, company_id, raw, employee_number, curp_rfc, amount, period, reference, outcome, credit_id)
  select :'file', row_number() over (), company_id, 'E1000001,GARA750101HJCRRN09,540.06,24,R', 'E1000001', 'GARA750101HJCRRN09', amount, '24', 'R', 'válido', credit_id
  from paid;

-- The application's read: every paid credit's owed rows, which the allocation needs (what is due first, a prepayment
-- to the last rows).
\copy (select i.* from installments i join paid p on p.credit_id = i.credit_id where i.outstanding > 0) to '/dev/null'

-- Its writes: the installment each payment pays, the payments with their allocation and the rows as they were, the
-- deductions received, and each credit's balances and aging (its index entries move with them).
update installments i set paid_principal = i.principal, paid_interest = i.interest, paid_iva = i.iva
  from paid p where i.credit_id = p.credit_id and i.number = p.period;
insert into payments (company_id, credit_id, file_id, file_line, value_date, amount, principal, interest, iva, moratory_interest,
                      moratory_iva, fees, fees_iva, overpayment, allocation, before)
  select p.company_id, p.credit_id, :'file', row_number() over (), :'payday', p.amount, 416.67, 106.37, 17.02, 0, 0, 0, 0, 0,
         '{"lines":[{"installment":24,"component":"interest","amount":"106.37","step":"due"},{"installment":24,"component":"iva","amount":"17.02","step":"due"},{"installment":24,"component":"principal","amount":"416.59","step":"due"}],"waived":[]}',
         json_build_object('installment', '540.06', 'rows', json_build_array(json_build_object(
           'credit_id', p.credit_id, 'number', p.period, 'principal', '416.59', 'interest', '106.37', 'iva', '17.02', 'moratory_interest', '0.00',
           'moratory_iva', '0.00', 'fees', '0.00', 'fees_iva', '0.00', 'payment', '539.98', 'balance', '0.00', 'paid_principal', '0.00',
           'paid_interest', '0.00', 'paid_iva', '0.00', 'paid_moratory_interest', '0.00', 'paid_moratory_iva', '0.00', 'paid_fees', '0.00',
           'paid_fees_iva', '0.00', 'accrues_from', null)), 'deduction', json_build_object('period', p.period, 'state', 'en tránsito'))
  from paid p;
update expected_deductions e set state = 'recibido' from paid p where e.credit_id = p.credit_id and e.period = p.period;
update credits c set outstanding_balance = c.outstanding_balance - 416.67, overdue_balance = 0, days_past_due = 0, aging_bucket = 'current'
  from paid p where c.id = p.credit_id;
rollback;
