import { asc, desc, eq } from 'drizzle-orm';
import type { LabelUpdateRowInput } from '@portal/contract';
import type { Tx } from '../db/client';
import { credits } from '../db/schema/credits';
import { labels } from '../db/schema/labels';
import { companies, users } from '../db/schema/users';
import type { Actor } from '../modules/audit/audit';
import { applyLabelUpdate } from '../modules/labels/labels.service';
import { creditFolio } from '../modules/shared/folios';

/** Each company's label catalogue, with the colours of their chips. */
export const DEMO_LABELS = [
  { name: 'Cobranza', color: '#e65100' },
  { name: 'Jurídico', color: '#b71c1c' },
  { name: 'Reestructura', color: '#1565c0' },
  { name: 'Defunción', color: '#424242' },
] as const;

/**
 * The label catalogue of every company and a few labelled credits, labelled the way a clerk does it (Actualizar
 * Etiqueta's service), so their history exists: a selection puts the most overdue credits in Cobranza, then a file
 * moves the worst one to Jurídico and labels one Reestructura and one Defunción.
 */
export async function seedLabels(tx: Tx, now: Date): Promise<void> {
  for (const company of await tx.select().from(companies).orderBy(asc(companies.name))) {
    await tx.insert(labels).values(DEMO_LABELS.map((label) => ({ companyId: company.id, ...label })));
    const [clerk] = await tx.select().from(users).where(eq(users.companyId, company.id)).orderBy(asc(users.email)).limit(1);
    const portfolio = await tx
      .select({ number: credits.number })
      .from(credits)
      .where(eq(credits.companyId, company.id))
      .orderBy(desc(credits.daysPastDue), asc(credits.number))
      .limit(6);
    if (!clerk || portfolio.length < 6) continue;
    const actor = {
      id: 'seed',
      principal: {
        userId: clerk.id,
        email: clerk.email,
        name: clerk.name,
        companyId: company.id,
        profileId: clerk.profileId,
        role: 'SEED',
        permissions: new Set<string>(),
      },
    } as unknown as Actor;
    const folios = portfolio.map((credit) => creditFolio(credit.number));
    const row = (line: number, folio: string, label: string, action: 'agregar' | 'quitar'): LabelUpdateRowInput => ({
      line,
      folio,
      label,
      action,
    });

    await applyLabelUpdate(
      tx,
      actor,
      { source: 'selección', fileName: null, rows: folios.slice(0, 4).map((folio, index) => row(index + 1, folio, 'Cobranza', 'agregar')) },
      new Date(now.getTime() - 7 * 86_400_000),
    );
    await applyLabelUpdate(
      tx,
      actor,
      {
        source: 'archivo',
        fileName: 'etiquetas-juridico.csv',
        rows: [
          row(2, folios[0]!, 'Cobranza', 'quitar'),
          row(3, folios[0]!, 'Jurídico', 'agregar'),
          row(4, folios[4]!, 'Reestructura', 'agregar'),
          row(5, folios[5]!, 'Defunción', 'agregar'),
        ],
      },
      new Date(now.getTime() - 86_400_000),
    );
  }
}
