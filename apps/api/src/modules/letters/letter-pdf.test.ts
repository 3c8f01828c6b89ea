import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, PDFRawStream, type PDFObject } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import { LETTER_FIELDS, type LetterPayoff, type LetterTexts } from '@portal/contract';
import { demoBackground, demoLayout } from '../../seed/seed-letters';
import { TemplateError, checkTemplate, renderLetter } from './letter-pdf';
import { normalizeBackground } from './letter-template-worker';
import { extractText } from '../../test/pdf-text';
import { longDate, pesos } from '../shared/es-mx';
import { letterTexts, mexicoDateAndHour } from './letter-texts';
import { letterFontBytes } from './letter-fonts';

const brand = {
  name: 'Financiera Demo',
  legalName: 'Financiera Demo, S.A. de C.V., SOFOM, E.N.R.',
  rfc: 'FDE150101AB1',
  color: [0.1, 0.4, 0.7] as [number, number, number],
  amountsRight: 523,
};

/** A payoff as the lending package answers it (figures chosen by hand, not computed here). */
const payoff: LetterPayoff = {
  quoteDate: '2027-01-08',
  validUntil: '2027-01-15',
  outstandingPrincipal: '11890.10',
  dueInterest: '0.00',
  dueIva: '0.00',
  dueFees: '0.00',
  dueFeesIva: '0.00',
  dueMoratoryInterest: '0.00',
  dueMoratoryIva: '0.00',
  accruedInterest: '118.90',
  accruedIva: '19.02',
  grossBalance: '12028.02',
  inTransit: '1026.54',
  finalBalance: '11001.48',
  discountDate: '2027-01-15',
  pendingDeduction: '1026.54',
  totalAmount: '9974.94',
  surplus: '0.00',
  creditAmount: '20000.00',
  term: 24,
  paymentsMade: 9,
  installment: '1026.54',
  inTransitCount: 1,
  pendingDeductions: [{ installment: 11, discountDate: '2027-01-15', amount: '1026.54' }],
};

describe('letter texts in es-MX', () => {
  it.each([
    ['0.5', '$0.50'],
    ['12345.67', '$12,345.67'],
    ['1234567.00', '$1,234,567.00'],
    ['999.99', '$999.99'],
    ['1000.00', '$1,000.00'],
  ])('money %s → %s', (amount, printed) => expect(pesos(amount)).toBe(printed));

  it.each([
    ['2027-01-15', '15 de enero de 2027'],
    ['2026-12-01', '1 de diciembre de 2026'],
    ['2028-02-29', '29 de febrero de 2028'],
  ])('date %s → %s', (date, printed) => expect(longDate(date)).toBe(printed));

  it('takes the date and hour in Mexico City (UTC−6, no daylight saving since 2022)', () => {
    expect(mexicoDateAndHour(new Date('2027-01-15T05:30:00Z'))).toEqual({ date: '2027-01-14', hour: '23:30' });
    expect(mexicoDateAndHour(new Date('2027-07-01T18:05:00Z'))).toEqual({ date: '2027-07-01', hour: '12:05' });
  });
});

describe('letter PDF', () => {
  const issuedAt = new Date('2027-01-08T16:45:00Z');
  const texts: LetterTexts = letterTexts(
    {
      folio: 'CR-00000042',
      clientName: 'María Guadalupe Núñez Peña',
      agreement: 'Gobierno de Jalisco',
      reference: '00000042000322',
      issuedAt,
    },
    payoff,
  );

  it("prints every field, where the layout says, with the quote's figures", async () => {
    const background = await demoBackground(brand);
    const layout = demoLayout(brand);
    const pdf = await renderLetter({ background, layout, texts, issuedAt, title: 'Carta' });
    const runs = await extractText(pdf);
    // The figures as a clerk reads them off the quote, written here by hand.
    const expected: Record<(typeof LETTER_FIELDS)[number], string> = {
      createdDate: '8 de enero de 2027',
      createdHour: '10:45 h',
      idPestamo: 'CR-00000042',
      cliente: 'María Guadalupe Núñez Peña',
      convenio: 'Gobierno de Jalisco',
      montoCredito: '$20,000.00',
      plazo: '24 pagos',
      pagos: '9 de 24',
      descuento: '$1,026.54',
      transito: '$1,026.54',
      saldoFinal: '$11,001.48',
      vigencia: '15 de enero de 2027',
      fechaDescuento: '15 de enero de 2027 ($1,026.54)',
      referencia: '00000042000322',
      montoTotal: '$9,974.94',
    };
    for (const field of LETTER_FIELDS) {
      const place = layout.fields[field];
      const run = runs.find((candidate) => candidate.text === expected[field] && Math.abs(candidate.y - place.y) < 0.5);
      expect(run, `${field}: «${expected[field]}» at y ${place.y} among ${JSON.stringify(runs.map((r) => [r.text, r.y]))}`).toBeDefined();
      expect(run!.size).toBeCloseTo(place.size, 1);
      if (place.align === 'left') expect(run!.x).toBeCloseTo(place.x, 1);
      else {
        // Right-aligned: the run ends at x. Its width measured by pdf.js, and by Noto Sans's metrics as a second opinion.
        expect(run!.x + run!.width).toBeCloseTo(place.x, 0);
        if (!place.bold) expect(run!.x).toBeCloseTo(place.x - notoWidth(expected[field], place.size), 1);
      }
    }
  });

  it('prints a name with —, “ ”, ñ, ü and á as written, in an embedded font that has their glyphs (issue 50)', async () => {
    const clientName = 'Ñandú “Toño” Güemes Álvarez';
    const agreement = 'Gobierno de Jalisco — Educación “Básica”';
    // Helvetica (WinAnsi) printed "?" for the em dash and the curly quotes. A blank page: only the letter's text on it.
    const blank = await PDFDocument.create();
    blank.addPage([595.28, 841.89]);
    const background = await blank.save();
    const pdf = await renderLetter({
      background,
      layout: demoLayout(brand),
      texts: { ...texts, cliente: clientName, convenio: agreement },
      issuedAt,
      title: 'Carta',
    });
    const runs = (await extractText(pdf)).map((run) => run.text);
    expect(runs).toContain(clientName);
    expect(runs).toContain(agreement);
    expect(runs.filter((run) => run.includes('?'))).toEqual([]);
    // What prints is the glyph, not the font's empty box: no glyph 0 (.notdef) is drawn, and the font files map every
    // one of these characters (read with fontkit directly, not through pdf-lib).
    const ids = await drawnGlyphIds(pdf);
    expect(ids.length).toBeGreaterThan(clientName.length + agreement.length);
    expect(ids.filter((id) => id === 0)).toEqual([]);
    const files = await letterFontBytes();
    for (const file of [files.regular, files.bold]) {
      const font = fontkit.create(file);
      for (const char of '—“”ñüáÑÁ') expect(font.hasGlyphForCodePoint(char.codePointAt(0)!), char).toBe(true);
    }
  });

  it('renders the same bytes for the same letter, and different ones for another instant', async () => {
    const background = await demoBackground(brand);
    const layout = demoLayout(brand);
    const first = await renderLetter({ background, layout, texts, issuedAt, title: 'Carta' });
    const second = await renderLetter({ background, layout, texts, issuedAt, title: 'Carta' });
    expect(createHash('sha256').update(second).digest('hex')).toBe(createHash('sha256').update(first).digest('hex'));
    const later = await renderLetter({ background, layout, texts, issuedAt: new Date(issuedAt.getTime() + 1000), title: 'Carta' });
    expect(Buffer.compare(later, first)).not.toBe(0);
    expect(first.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

/**
 * The glyph ids that every `<…> Tj` on the first page draws: pdf-lib writes an embedded font's text as ids of four hex
 * digits (and a standard font's as two-digit WinAnsi codes, which this would read in pairs).
 */
async function drawnGlyphIds(bytes: Uint8Array): Promise<number[]> {
  const pdf = await PDFDocument.load(bytes);
  const contents = pdf.getPage(0).node.Contents();
  const refs: (PDFObject | undefined)[] = contents instanceof PDFArray ? contents.asArray() : [contents];
  const ids: number[] = [];
  for (const ref of refs) {
    const stream = ref ? pdf.context.lookup(ref) : undefined;
    if (!(stream instanceof PDFRawStream)) continue;
    const raw = Buffer.from(stream.contents);
    const text = (stream.dict.get(PDFName.of('Filter')) ? inflateSync(raw) : raw).toString('latin1');
    for (const match of text.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g))
      ids.push(...(match[1]!.match(/.{4}/g) ?? []).map((hex) => parseInt(hex, 16)));
  }
  return ids;
}

/** Each field's longest value for a brand, written out by hand (what widestTexts finds in the demo data, rounded up). */
const WIDEST: LetterTexts = {
  createdDate: '28 de septiembre de 2100',
  createdHour: '23:59 h',
  idPestamo: 'CR-99999999',
  cliente: 'María Guadalupe Hernández Rodríguez',
  convenio: 'Gobierno del Estado de Jalisco',
  montoCredito: '$99,999,999.99',
  plazo: '999 pagos',
  pagos: '999 de 999',
  descuento: '$99,999,999.99',
  transito: '$99,999,999.99',
  saldoFinal: '$99,999,999.99',
  vigencia: '28 de septiembre de 2100',
  fechaDescuento: '28 de septiembre de 2100 ($99,999,999.99)',
  referencia: '99999999991234',
  montoTotal: '$99,999,999.99',
};

/** The advance widths of Noto Sans Regular (its hmtx table, 1000 units per em) for the characters the checks print. */
const NOTO_REGULAR: Record<string, number> = {
  ...Object.fromEntries([...'0123456789'].map((digit) => [digit, 572])),
  ' ': 260,
  $: 572,
  ',': 268,
  '.': 268,
  ':': 268,
  '-': 322,
  '(': 300,
  ')': 300,
  C: 632,
  E: 556,
  J: 273,
  b: 615,
  c: 480,
  h: 618,
  m: 935,
  t: 361,
  v: 508,
  y: 510,
  G: 728,
  H: 741,
  M: 907,
  R: 622,
  a: 561,
  d: 615,
  e: 564,
  g: 615,
  i: 258,
  l: 258,
  n: 618,
  o: 605,
  p: 615,
  r: 413,
  s: 479,
  u: 618,
  z: 470,
  á: 561,
  í: 258,
};
const notoWidth = (text: string, size: number) =>
  ([...text].reduce((sum, char) => sum + (NOTO_REGULAR[char] ?? Number.NaN), 0) * size) / 1000;

describe('template check', () => {
  const layoutText = (change: (layout: Record<string, Record<string, unknown>>) => void = () => undefined) => {
    const layout = JSON.parse(JSON.stringify(demoLayout(brand))) as { fields: Record<string, Record<string, unknown>> };
    change(layout.fields);
    return JSON.stringify(layout);
  };

  it("counts the background's time budget from when the started worker takes the bytes, not while a busy machine starts it", async () => {
    const background = await demoBackground(brand);
    const reading = normalizeBackground(background, { timeMs: 3_000 });
    // The machine busy for longer than the whole budget while the thread starts (this thread blocked: its timers too).
    const until = Date.now() + 3_500;
    while (Date.now() < until);
    const read = await reading;
    expect('refused' in read ? read.refused : null).toBeNull();
  });

  it('accepts the demo template and reads the page size', async () => {
    const checked = await checkTemplate(await demoBackground(brand), layoutText(), WIDEST);
    expect(checked.pageWidth).toBeCloseTo(595.28, 2);
    expect(checked.pageHeight).toBeCloseTo(841.89, 2);
  });

  const problems = async (background: Buffer | Promise<Buffer>, layout: string) => {
    try {
      await checkTemplate(await background, layout, WIDEST);
    } catch (error) {
      if (error instanceof TemplateError) return error.errors;
      throw error;
    }
    return [];
  };

  it('reports a missing field, one outside the page, a bad number and an unknown field, each in Spanish', async () => {
    const errors = await problems(
      demoBackground(brand),
      layoutText((fields) => {
        delete fields.referencia;
        fields.cliente!.x = 700;
        fields.montoTotal!.y = 'arriba';
        fields.firma = { x: 1, y: 1 };
      }),
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'layout.fields.referencia', message: 'Falta el campo referencia (Referencia de pago).' },
        { field: 'layout.fields.firma', message: 'El campo firma no es de la carta.' },
        expect.objectContaining({ field: 'layout.fields.montoTotal.y', message: 'montoTotal.y: y debe ser un número.' }),
      ]),
    );
    // The page check runs on a layout that parses: checked apart.
    const outside = await problems(
      demoBackground(brand),
      layoutText((fields) => void (fields.cliente!.x = 700)),
    );
    expect(outside.map((e) => e.field)).toEqual(['layout.fields.cliente']);
    expect(outside[0]!.message).toMatch(/^El campo cliente \(Cliente\) se sale de la página \(595\.28 × 841\.89 puntos\)/);
    const tooHigh = await problems(
      demoBackground(brand),
      layoutText((fields) => void (fields.vigencia!.y = 835)),
    );
    expect(tooHigh.map((e) => e.field)).toEqual(['layout.fields.vigencia']);
  });

  it('refuses a field whose widest text leaves the page, though it starts inside it, naming the field and the overflow (issue 44)', async () => {
    // The client's longest name at size 36 from x 590: the start point is on the page, the text is not.
    const size36 = await problems(
      demoBackground(brand),
      layoutText((fields) => Object.assign(fields.cliente!, { x: 590, size: 36, align: 'left', bold: false })),
    );
    const width = notoWidth(WIDEST.cliente, 36);
    expect(size36).toEqual([
      {
        field: 'layout.fields.cliente',
        message: `El campo cliente (Cliente) se sale de la página (595.28 × 841.89 puntos): su texto más largo, «${WIDEST.cliente}», a tamaño 36 mide ${Math.round(width * 100) / 100} puntos y termina ${Math.round((590 + width - 595.28) * 100) / 100} puntos después del borde derecho.`,
      },
    ]);
    // Every x at the page's width.
    const atEdge = await problems(
      demoBackground(brand),
      layoutText((fields) => {
        for (const field of Object.values(fields)) Object.assign(field, { x: 595, align: 'left' });
      }),
    );
    expect(atEdge.map((e) => e.field).sort()).toEqual(LETTER_FIELDS.map((field) => `layout.fields.${field}`).sort());
    // Right-aligned near the left edge: the text would start before the page.
    const left = await problems(
      demoBackground(brand),
      layoutText((fields) => Object.assign(fields.montoTotal!, { x: 20, align: 'right' })),
    );
    expect(left.map((e) => e.field)).toEqual(['layout.fields.montoTotal']);
    expect(left[0]!.message).toContain('antes del borde izquierdo');
    // The same text that fits exactly is accepted: the check is the text's width, not a margin.
    const fits = 595.28 - notoWidth(WIDEST.cliente, 10) - 0.01;
    expect(
      await problems(
        demoBackground(brand),
        layoutText((fields) => Object.assign(fields.cliente!, { x: fits, size: 10, align: 'left', bold: false })),
      ),
    ).toEqual([]);
  });

  it('refuses what is not a PDF, a damaged PDF and a layout that is not JSON', async () => {
    expect(await problems(Buffer.from('hola'), layoutText())).toEqual([
      { field: 'background', message: 'El fondo no es un PDF (no empieza con %PDF-).' },
    ]);
    const damaged = Buffer.from('%PDF-1.7\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF');
    expect((await problems(damaged, layoutText())).map((e) => e.field)).toEqual(['background']);
    expect(await problems(demoBackground(brand), '{ "fields": ')).toEqual([{ field: 'layout', message: 'El layout no es JSON válido.' }]);
    expect(await problems(demoBackground(brand), '[]')).toEqual([
      { field: 'layout', message: 'El layout debe tener un objeto "fields" con la posición de cada campo.' },
    ]);
  });
});
