import { asc, eq } from 'drizzle-orm';
import type { Label } from '@portal/contract';
import type { Tx } from '../../db/client';
import { labels } from '../../db/schema/labels';
import { companies } from '../../db/schema/users';

/** The label catalogue the scope sees (the user's company; every company's for SA), by company and name. */
export const labelCatalogue = (tx: Tx): Promise<Label[]> =>
  tx
    .select({ id: labels.id, companyId: labels.companyId, company: companies.name, name: labels.name, color: labels.color })
    .from(labels)
    .innerJoin(companies, eq(companies.id, labels.companyId))
    .orderBy(asc(companies.name), asc(labels.name));
