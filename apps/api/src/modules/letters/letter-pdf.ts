import type { PDFDocument, PDFFont } from 'pdf-lib';
import { loadPdfLib } from '../../lib/libraries';
import { CANVAS_REFUSALS, normalizeBackground } from './letter-template-worker';
import { drawable, embedLetterFonts } from './letter-fonts';
import {
  LETTER_FIELDS,
  LETTER_FIELD_LABELS,
  letterLayoutSchema,
  type FieldError,
  type LetterLayout,
  type LetterTexts,
} from '@portal/contract';

/**
 * The letter's PDF: the template's background (its first page) with each field drawn where the layout places it, in
 * Noto Sans regular and bold, embedded as the subset the letter prints (letter-fonts.ts; Helvetica printed "?" for —
 * and “ ”, issue 50). The bytes depend only on the background, the layout, the texts and the issue instant (creation and
 * modification dates, no random document id, subset names from the texts), so the same letter renders the same bytes;
 * the stored bytes are what a re-download returns.
 */

export class TemplateError extends Error {
  constructor(
    message: string,
    readonly errors: FieldError[],
  ) {
    super(message);
  }
}

export interface CheckedTemplate {
  pageWidth: number;
  pageHeight: number;
  layout: LetterLayout;
  /** The background's first page alone, re-saved (letter-template-worker.ts): what letters are drawn on. */
  canvas: Buffer;
}

async function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  const { PDFDocument } = await loadPdfLib();
  return PDFDocument.load(bytes, { updateMetadata: false });
}

/**
 * Checks an uploaded template: the background is a readable, unencrypted PDF with a page, read in a worker thread under
 * a time and size budget (issue 44), and the layout is JSON that places every field of the letter so that its widest
 * text (`widest`: the brand's longest value of each field) stays inside that page. Every problem is reported, in
 * Spanish, with the field it is about.
 */
export async function checkTemplate(background: Buffer, layoutText: string, widest: LetterTexts): Promise<CheckedTemplate> {
  const errors: FieldError[] = [];
  let page: { width: number; height: number } | null = null;
  let canvas: Buffer | null = null;
  if (background.length === 0) errors.push({ field: 'background', message: 'Falta el PDF de fondo.' });
  else if (!background.subarray(0, 1024).includes('%PDF-'))
    errors.push({ field: 'background', message: 'El fondo no es un PDF (no empieza con %PDF-).' });
  else {
    const read = await normalizeBackground(background);
    if ('refused' in read) errors.push({ field: 'background', message: CANVAS_REFUSALS[read.refused] });
    else {
      page = { width: read.width, height: read.height };
      canvas = read.canvas;
    }
  }

  let raw: unknown = null;
  try {
    raw = JSON.parse(layoutText);
  } catch {
    errors.push({ field: 'layout', message: layoutText.trim() === '' ? 'Falta el layout (JSON).' : 'El layout no es JSON válido.' });
  }
  let layout: LetterLayout | null = null;
  if (raw !== null) {
    const fields =
      typeof raw === 'object' && raw !== null && 'fields' in raw && typeof raw.fields === 'object' && raw.fields !== null
        ? (raw.fields as Record<string, unknown>)
        : null;
    if (!fields) errors.push({ field: 'layout', message: 'El layout debe tener un objeto "fields" con la posición de cada campo.' });
    else {
      for (const field of LETTER_FIELDS) {
        if (!(field in fields))
          errors.push({ field: `layout.fields.${field}`, message: `Falta el campo ${field} (${LETTER_FIELD_LABELS[field]}).` });
      }
      for (const unknown of Object.keys(fields).filter((key) => !(LETTER_FIELDS as readonly string[]).includes(key))) {
        errors.push({ field: `layout.fields.${unknown}`, message: `El campo ${unknown} no es de la carta.` });
      }
      const parsed = letterLayoutSchema.safeParse(raw);
      if (parsed.success) layout = parsed.data;
      else {
        for (const issue of parsed.error.issues) {
          const [, field, property] = issue.path.map(String);
          if (field && !(field in fields)) continue; // already reported as missing
          errors.push({
            field: `layout.${issue.path.join('.')}`,
            message: `${field ?? 'layout'}${property ? `.${property}` : ''}: ${issue.message}`,
          });
        }
      }
    }
  }
  if (layout && page) errors.push(...(await textsOffPage(layout, page, widest)));
  if (errors.length > 0 || !layout || !page || !canvas)
    throw new TemplateError(`La plantilla no es válida: ${errors.length} ${errors.length === 1 ? 'problema' : 'problemas'}.`, errors);
  return { pageWidth: page.width, pageHeight: page.height, layout, canvas };
}

/**
 * The fields whose widest text, at the layout's size in the letter's own embedded fonts (Noto Sans, bold where asked,
 * with their metrics), would leave the page: to the right of a left-aligned field, to the left of a right-aligned
 * one, or above or below the page. Only the start point was checked before (issue 44): any `x` up to the page's width,
 * or size 36 at x 590, passed, and the letters printed cut.
 */
async function textsOffPage(layout: LetterLayout, page: { width: number; height: number }, widest: LetterTexts): Promise<FieldError[]> {
  const { PDFDocument } = await loadPdfLib();
  const { regular, bold } = await embedLetterFonts(await PDFDocument.create());
  const errors: FieldError[] = [];
  for (const field of LETTER_FIELDS) {
    const { x, y, size, align, bold: isBold } = layout.fields[field];
    const font = isBold ? bold : regular;
    const text = drawable(widest[field], font);
    // The width as drawn: for an embedded font pdf-lib lays the text out once (ligatures included, no kerning) and
    // both draws those glyphs and sums their advance widths, the ones it writes in the font's /W array.
    const width = font.widthOfTextAtSize(text, size);
    const [from, to] = align === 'right' ? [x - width, x] : [x, x + width];
    const where =
      from < 0
        ? `empieza ${round(-from)} puntos antes del borde izquierdo`
        : to > page.width
          ? `termina ${round(to - page.width)} puntos después del borde derecho`
          : y < 0 || y + size > page.height
            ? 'queda arriba o abajo de la página'
            : null;
    if (where) {
      errors.push({
        field: `layout.fields.${field}`,
        message: `El campo ${field} (${LETTER_FIELD_LABELS[field]}) se sale de la página (${round(page.width)} × ${round(page.height)} puntos): su texto más largo, «${text}», a tamaño ${size} mide ${round(width)} puntos y ${where}.`,
      });
    }
  }
  return errors;
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Where a field's text starts and at which size: shrunk, if needed, so it ends inside the page. */
export function placeText(
  text: string,
  field: LetterLayout['fields'][keyof LetterLayout['fields']],
  font: PDFFont,
  pageWidth: number,
): { x: number; size: number } {
  let size = field.size;
  const room = field.align === 'right' ? field.x : pageWidth - field.x;
  while (size > 6 && font.widthOfTextAtSize(text, size) > room) size = Math.max(6, size - 0.5);
  const width = font.widthOfTextAtSize(text, size);
  return { x: field.align === 'right' ? field.x - width : field.x, size };
}

export interface RenderInput {
  background: Uint8Array;
  layout: LetterLayout;
  texts: LetterTexts;
  issuedAt: Date;
  title: string;
}

/** The letter's PDF bytes: one page, the background's first, with every field drawn. */
export async function renderLetter(input: RenderInput): Promise<Buffer> {
  const { rgb } = await loadPdfLib();
  const pdf = await loadPdf(input.background);
  while (pdf.getPageCount() > 1) pdf.removePage(pdf.getPageCount() - 1);
  const page = pdf.getPage(0);
  const { regular, bold } = await embedLetterFonts(
    pdf,
    LETTER_FIELDS.map((field) => input.texts[field]),
  );
  const { width } = page.getSize();
  for (const field of LETTER_FIELDS) {
    const place = input.layout.fields[field];
    const font = place.bold ? bold : regular;
    const text = drawable(input.texts[field], font);
    const { x, size } = placeText(text, place, font, width);
    page.drawText(text, { x, y: place.y, size, font, color: rgb(0, 0, 0) });
  }
  pdf.setTitle(input.title);
  pdf.setAuthor('Portal de crédito de nómina');
  pdf.setProducer('Portal de crédito de nómina');
  pdf.setCreator('Portal de crédito de nómina');
  pdf.setLanguage('es-MX');
  pdf.setCreationDate(input.issuedAt);
  pdf.setModificationDate(input.issuedAt);
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}
