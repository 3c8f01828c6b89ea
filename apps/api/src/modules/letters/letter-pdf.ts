import type { PDFDocument, PDFFont } from 'pdf-lib';
import { loadPdfLib } from '../../lib/libraries';
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
 * Helvetica (a PDF standard font: nothing embedded, and it covers Spanish). The bytes depend only on the background, the
 * layout, the texts and the issue instant (creation and modification dates, no random document id), so the same
 * letter renders the same bytes; the stored bytes are what a re-download returns.
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
}

async function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  const { PDFDocument } = await loadPdfLib();
  return PDFDocument.load(bytes, { updateMetadata: false });
}

/**
 * Checks an uploaded template: the background is a readable, unencrypted PDF with a page, and the layout is JSON that
 * places every field of the letter inside that page. Every problem is reported, in Spanish, with the field it is about.
 */
export async function checkTemplate(background: Buffer, layoutText: string): Promise<CheckedTemplate> {
  const errors: FieldError[] = [];
  let page: { width: number; height: number } | null = null;
  if (background.length === 0) errors.push({ field: 'background', message: 'Falta el PDF de fondo.' });
  else if (!background.subarray(0, 1024).includes('%PDF-'))
    errors.push({ field: 'background', message: 'El fondo no es un PDF (no empieza con %PDF-).' });
  else {
    try {
      const pdf = await loadPdf(background);
      const first = pdf.getPageCount() > 0 ? pdf.getPage(0) : null;
      if (!first) errors.push({ field: 'background', message: 'El PDF de fondo no tiene páginas.' });
      else page = first.getSize();
    } catch (error) {
      const encrypted = error instanceof Error && /encrypt/i.test(error.message);
      errors.push({
        field: 'background',
        message: encrypted ? 'El PDF de fondo está cifrado o protegido con contraseña.' : 'El PDF de fondo está dañado o no se puede leer.',
      });
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
  if (layout && page) {
    for (const field of LETTER_FIELDS) {
      const { x, y, size } = layout.fields[field];
      if (x > page.width || y + size > page.height) {
        errors.push({
          field: `layout.fields.${field}`,
          message: `El campo ${field} (${LETTER_FIELD_LABELS[field]}) queda fuera de la página (${round(page.width)} × ${round(page.height)} puntos): x ${x}, y ${y}, tamaño ${size}.`,
        });
      }
    }
  }
  if (errors.length > 0 || !layout || !page)
    throw new TemplateError(`La plantilla no es válida: ${errors.length} ${errors.length === 1 ? 'problema' : 'problemas'}.`, errors);
  return { pageWidth: page.width, pageHeight: page.height, layout };
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Characters Helvetica (WinAnsi) cannot draw lose their accent (ő → o), or become "?", rather than failing the letter. */
function drawable(text: string): string {
  return [...text]
    .map((char) => {
      if (/[\x20-\x7E\u00A0-\u00FF]/.test(char)) return char;
      const base = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      return /^[\x20-\x7E\u00A0-\u00FF]+$/.test(base) ? base : '?';
    })
    .join('');
}

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
  const { StandardFonts, rgb } = await loadPdfLib();
  const pdf = await loadPdf(input.background);
  while (pdf.getPageCount() > 1) pdf.removePage(pdf.getPageCount() - 1);
  const page = pdf.getPage(0);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const { width } = page.getSize();
  for (const field of LETTER_FIELDS) {
    const place = input.layout.fields[field];
    const font = place.bold ? bold : regular;
    const text = drawable(input.texts[field]);
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
