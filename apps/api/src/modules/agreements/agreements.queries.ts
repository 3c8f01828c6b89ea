import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { isValidRfc } from '@portal/lending';
import { layoutSchema, type AgreementDetail, type AgreementListItem, type AgreementListQuery } from '@portal/contract';
import type { Db } from '../../db/client';
import { fixedSelect } from '../../db/fixed-select';
import { containsPattern } from '../../db/like';
import { trimNumeric } from '../../db/numeric';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { companies } from '../../db/schema/users';
import { HttpProblem } from '../../http/errors';
import { fixedCount, listOrder, type Paged, pagedList, type SortMap } from '../../http/pagination';
import { auditHistory } from '../audit/audit';
import { toProduct } from '../shared/products';

/** The agreements list's selects (page, count and export read the same columns) and the detail with its products. */

const activeProducts = sql<number>`(select count(*)::int from ${agreementProducts} where ${agreementProducts.agreementId} = ${agreements.id} and ${agreementProducts.active})`;

const SORT: SortMap = {
  code: agreements.code,
  name: agreements.name,
  employerName: agreements.employerName,
  sector: agreements.sector,
  frequency: agreements.frequency,
  company: companies.name,
  active: agreements.active,
};

export function agreementFilters(query: Omit<AgreementListQuery, 'page' | 'pageSize'>): SQL | undefined {
  const pattern = query.q ? containsPattern(query.q) : null;
  return and(
    pattern ? or(ilike(agreements.code, pattern), ilike(agreements.name, pattern), ilike(agreements.employerName, pattern)) : undefined,
    query.companyId ? eq(agreements.companyId, query.companyId) : undefined,
    query.sector ? eq(agreements.sector, query.sector) : undefined,
    query.frequency ? eq(agreements.frequency, query.frequency) : undefined,
    query.status ? eq(agreements.active, query.status === 'active') : undefined,
  );
}

export const agreementOrder = (sort: string | undefined): SQL[] => listOrder(SORT, sort, { field: 'code' }, agreements.id);

const agreementList = fixedSelect(
  {
    id: agreements.id,
    code: agreements.code,
    name: agreements.name,
    employerName: agreements.employerName,
    sector: agreements.sector,
    frequency: agreements.frequency,
    companyId: agreements.companyId,
    company: companies.name,
    activeProducts,
    active: agreements.active,
    version: agreements.version,
  },
  (select) => select.from(agreements).innerJoin(companies, eq(companies.id, agreements.companyId)),
);

export const agreementListSelect = (db: Db) => agreementList.in(db);

const agreementCount = fixedCount((select) => select.from(agreements));

export function listAgreements(db: Db, query: AgreementListQuery): Promise<Paged<AgreementListItem>> {
  const where = agreementFilters(query);
  return pagedList(
    query,
    agreementListSelect(db)
      .where(where)
      .orderBy(...agreementOrder(query.sort)),
    agreementCount.in(db).where(where),
    (row) => row,
  );
}

export const AGREEMENT_NOT_FOUND = { title: 'Convenio no encontrado', detail: 'El convenio no existe.' };

export async function loadAgreementDetail(db: Db, id: string): Promise<AgreementDetail> {
  const [row] = await db
    .select({ agreement: agreements, company: companies.name })
    .from(agreements)
    .innerJoin(companies, eq(companies.id, agreements.companyId))
    .where(eq(agreements.id, id));
  if (!row) throw new HttpProblem(404, AGREEMENT_NOT_FOUND.title, AGREEMENT_NOT_FOUND.detail);
  const products = await db
    .select()
    .from(agreementProducts)
    .where(eq(agreementProducts.agreementId, id))
    .orderBy(asc(agreementProducts.position));
  const { agreement } = row;
  const layout = layoutSchema.safeParse(agreement.layout);
  const warnings: AgreementDetail['warnings'] = [];
  if (!isValidRfc(agreement.employerRfc, { checkDigit: true })) {
    warnings.push({ field: 'employerRfc', message: 'El dígito verificador del RFC no coincide; confírmalo con el patrón.' });
  }
  if (!layout.success) {
    warnings.push({
      field: 'layout',
      message:
        'El layout de archivos de pagos guardado no es válido: defínelo de nuevo y guarda el convenio para poder cargar sus archivos de pagos.',
    });
  }
  return {
    ...agreement,
    company: row.company,
    maxDeductionPct: trimNumeric(agreement.maxDeductionPct),
    contacts: agreement.contacts as AgreementDetail['contacts'],
    layout: layout.success ? layout.data : null,
    products: products.map(toProduct),
    warnings,
    history: await auditHistory(db, 'agreement', id),
  };
}
