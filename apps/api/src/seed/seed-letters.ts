import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { loadPdfLib } from '../lib/libraries';
import { LETTER_FIELDS, type LetterLayout, type LetterField } from '@portal/contract';
import type { Tx } from '../db/client';
import { credits } from '../db/schema/credits';
import { letterTemplates } from '../db/schema/letters';
import { companies, users } from '../db/schema/users';
import type { Actor } from '../modules/audit/audit';
import { issueLetter, letterQuote } from '../modules/letters/letters.service';
import { mexicoToday } from '../modules/shared/business-date';

/**
 * Each brand's settlement-letter template, version 1: a letterhead background drawn here with pdf-lib (so it is the
 * same bytes on every start) and the layout placing each field beside its printed label. Then a few letters issued the
 * way a clerk issues them (the letters' service), so the credit view shows some on the first start.
 */

const A4 = { width: 595.28, height: 841.89 } as const;

interface Brand {
  name: string;
  legalName: string;
  rfc: string;
  /** The letterhead's colour, 0–1 RGB. */
  color: [number, number, number];
  /** Where the amounts' column ends (right-aligned figures). */
  amountsRight: number;
}

/** The rows of the letter: each field's printed label, its line, and whether it is a figure (right-aligned). */
const ROWS: { field: LetterField; label: string; y: number; figure?: boolean; bold?: boolean; size?: number }[] = [
  { field: 'idPestamo', label: 'Crédito', y: 640 },
  { field: 'cliente', label: 'Cliente', y: 620 },
  { field: 'convenio', label: 'Convenio', y: 600 },
  { field: 'montoCredito', label: 'Monto del crédito', y: 560, figure: true },
  { field: 'plazo', label: 'Plazo', y: 540, figure: true },
  { field: 'pagos', label: 'Pagos realizados', y: 520, figure: true },
  { field: 'descuento', label: 'Descuento por periodo', y: 500, figure: true },
  { field: 'transito', label: 'En tránsito (descontado por la dependencia, aún no recibido)', y: 480, figure: true },
  { field: 'saldoFinal', label: 'Saldo final', y: 460, figure: true },
  { field: 'vigencia', label: 'Vigencia de esta carta', y: 420, figure: true },
  { field: 'fechaDescuento', label: 'Descuento de nómina dentro de la vigencia', y: 400, figure: true },
  { field: 'referencia', label: 'Referencia de pago', y: 360, figure: true, bold: true },
  { field: 'montoTotal', label: 'Importe total a liquidar', y: 330, figure: true, bold: true, size: 14 },
];

const LABELS_X = 72;
const VALUES_X = 160;

export function demoLayout(brand: Pick<Brand, 'amountsRight'>): LetterLayout {
  const fields = {
    createdDate: { x: 360, y: 700, size: 10, align: 'left', bold: false },
    createdHour: { x: brand.amountsRight, y: 686, size: 9, align: 'right', bold: false },
  } as Partial<LetterLayout['fields']>;
  for (const row of ROWS) {
    fields[row.field] = {
      x: row.figure ? brand.amountsRight : VALUES_X,
      y: row.y,
      size: row.size ?? 10,
      align: row.figure ? 'right' : 'left',
      bold: row.bold ?? false,
    };
  }
  for (const field of LETTER_FIELDS) if (!fields[field]) throw new Error(`demoLayout: ${field} sin posición`);
  return { fields: fields as LetterLayout['fields'] };
}

/** The brand's letterhead: its name, legal name and RFC, the title, every field's label and the fine print. */
export async function demoBackground(brand: Brand): Promise<Buffer> {
  const { PDFDocument, StandardFonts, rgb } = await loadPdfLib();
  const pdf = await PDFDocument.create();
  const fixed = new Date('2026-01-01T00:00:00Z');
  pdf.setCreationDate(fixed);
  pdf.setModificationDate(fixed);
  pdf.setProducer('Portal de crédito de nómina (seed)');
  pdf.setCreator('Portal de crédito de nómina (seed)');
  pdf.setTitle(`Plantilla de carta de liquidación — ${brand.name}`);
  const page = pdf.addPage([A4.width, A4.height]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const color = rgb(...brand.color);
  page.drawRectangle({ x: 0, y: A4.height - 90, width: A4.width, height: 90, color });
  page.drawText(brand.name, { x: LABELS_X, y: A4.height - 50, size: 22, font: bold, color: rgb(1, 1, 1) });
  page.drawText(`${brand.legalName} · RFC ${brand.rfc}`, { x: LABELS_X, y: A4.height - 72, size: 9, font: regular, color: rgb(1, 1, 1) });
  page.drawText('Carta de liquidación anticipada', { x: LABELS_X, y: 720, size: 16, font: bold, color });
  page.drawText('Emitida el', { x: 300, y: 700, size: 10, font: regular });
  page.drawText('a las', { x: 300, y: 686, size: 9, font: regular });
  for (const row of ROWS)
    page.drawText(row.figure || row.bold ? row.label : `${row.label}:`, {
      x: LABELS_X,
      y: row.y,
      size: row.size ?? 10,
      font: row.bold ? bold : regular,
    });
  page.drawLine({ start: { x: LABELS_X, y: 445 }, end: { x: brand.amountsRight, y: 445 }, thickness: 0.5, color });
  page.drawLine({ start: { x: LABELS_X, y: 385 }, end: { x: brand.amountsRight, y: 385 }, thickness: 0.5, color });
  const fine = [
    'El importe total liquida el crédito si se paga en cualquier día hasta la vigencia de esta carta, con la referencia',
    'de pago indicada. Si se paga antes, la diferencia a su favor se le devuelve. El descuento de nómina que caiga dentro',
    'de la vigencia ya está restado del importe. Después de la vigencia, solicite una carta nueva.',
  ];
  fine.forEach((line, index) => page.drawText(line, { x: LABELS_X, y: 260 - index * 13, size: 8.5, font: regular }));
  page.drawText(`Atentamente, ${brand.legalName}`, { x: LABELS_X, y: 180, size: 9, font: regular });
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

const BRANDS: Record<string, Pick<Brand, 'color' | 'amountsRight'>> = {
  DEMO: { color: [0.08, 0.4, 0.75], amountsRight: 523 },
  PLUS: { color: [0.0, 0.47, 0.36], amountsRight: 510 },
};

/** Version 1 of each company's template (the seed's two brands; any other company gets the first brand's look). */
export async function seedLetterTemplates(tx: Tx, now: Date): Promise<void> {
  for (const company of await tx.select().from(companies).orderBy(asc(companies.name))) {
    const look = BRANDS[company.code] ?? BRANDS.DEMO!;
    const background = await demoBackground({ name: company.name, legalName: company.legalName, rfc: company.rfc, ...look });
    await tx.insert(letterTemplates).values({
      companyId: company.id,
      version: 1,
      fileName: `plantilla-${company.code.toLowerCase()}-v1.pdf`,
      background,
      // The seed's own one-page pdf-lib file is already what an upload's normalization produces.
      canvas: background,
      size: background.length,
      sha256: createHash('sha256').update(background).digest('hex'),
      pageWidth: A4.width,
      pageHeight: A4.height,
      layout: demoLayout(look),
      uploadedAt: now,
    });
  }
}

/**
 * Two letters in each company: its oldest current credit gets two, an hour or so apart. A credit a renewal already paid
 * off (vigente only until its en-tránsito deduction arrives) owes nothing more and gets no letter, nor does one whose
 * whole balance is deducted and en tránsito.
 */
export async function seedLetters(tx: Tx, now: Date): Promise<void> {
  const today = mexicoToday(now);
  for (const company of await tx.select().from(companies).orderBy(asc(companies.name))) {
    const [clerk] = await tx
      .select()
      .from(users)
      .where(and(eq(users.companyId, company.id), inArray(users.email, ['cartera@demo.mx', 'plus@demo.mx'])));
    const candidates = await tx
      .select({ id: credits.id })
      .from(credits)
      .where(and(eq(credits.companyId, company.id), eq(credits.status, 'vigente'), isNull(credits.renewedByCreditId)))
      .orderBy(asc(credits.number))
      .limit(50);
    // The first that still owes something at the letter's validity: on some days all a credit owes is deducted and en
    // tránsito (the demo's unanswered payday), and the letter is refused as it would be to a clerk.
    let credit: { id: string } | undefined;
    for (const candidate of candidates) {
      const quote = await letterQuote(tx, candidate.id, today);
      if (quote.status !== 'liquidado' && quote.payoff.totalAmount !== '0.00') {
        credit = candidate;
        break;
      }
    }
    if (!clerk || !credit) continue;
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
    await issueLetter(tx, actor, credit.id, today, new Date(now.getTime() - 3 * 3_600_000));
    await issueLetter(tx, actor, credit.id, today, new Date(now.getTime() - 3_600_000));
  }
}
