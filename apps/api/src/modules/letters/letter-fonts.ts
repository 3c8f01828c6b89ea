import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import { loadFontkit } from '../../lib/libraries';

/**
 * The letters' typeface: Noto Sans (SIL Open Font License 1.1), regular and bold, embedded in each letter (issue 50).
 * Helvetica, a PDF standard font, only encodes WinAnsi: an agreement's em dash or a name's “quotes” printed "?".
 * Noto Sans covers Spanish and the typographic marks (— – “ ” ‘ ’ « » …). The TrueType files come from the npm package
 * @expo-google-fonts/noto-sans, a production dependency of the API: the bundle leaves npm packages to node_modules
 * (build.mjs), so `node apps/api/dist/main.js` and the Docker image find them where the sources do.
 */
export const LETTER_FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
} as const;

const resolveFromHere = createRequire(import.meta.url).resolve;

let fontBytes: Promise<{ regular: Buffer; bold: Buffer }> | undefined;
/**
 * The two TrueType files, read once (about 630 kB each) and kept without their OpenType layout tables: every letter
 * embeds the subset it prints.
 */
export function letterFontBytes(): Promise<{ regular: Buffer; bold: Buffer }> {
  return (fontBytes ??= Promise.all([
    readFile(resolveFromHere(LETTER_FONT_FILES.regular)),
    readFile(resolveFromHere(LETTER_FONT_FILES.bold)),
  ]).then(([regular, bold]) => ({ regular: withoutLayoutTables(regular), bold: withoutLayoutTables(bold) })));
}

/**
 * The font without its OpenType layout tables (GSUB, GPOS, GDEF). fontkit decodes them whole on a font's first text,
 * synchronously: 65–110 ms per font on this machine, for each letter and each template check, on the event loop that
 * issue 44 keeps under 100 ms. Spanish needs none of them (á, ñ, ü, —, “ ” are characters of their own in the font's
 * cmap); without them a text is its characters' glyphs side by side, no ligatures, no kerning: the width that the
 * template check measures is the sum of the advance widths that the PDF's /W array gives the viewer.
 */
export function withoutLayoutTables(font: Buffer): Buffer {
  const dropped = new Set(['GSUB', 'GPOS', 'GDEF']);
  const count = font.readUInt16BE(4);
  const tables = Array.from({ length: count }, (_, index) => {
    const at = 12 + 16 * index;
    const offset = font.readUInt32BE(at + 8);
    return {
      tag: font.toString('latin1', at, at + 4),
      checksum: font.readUInt32BE(at + 4),
      data: font.subarray(offset, offset + font.readUInt32BE(at + 12)),
    };
  }).filter((table) => !dropped.has(table.tag));
  const entrySelector = Math.floor(Math.log2(tables.length));
  const header = Buffer.alloc(12 + 16 * tables.length);
  header.writeUInt32BE(font.readUInt32BE(0), 0); // sfnt version
  header.writeUInt16BE(tables.length, 4);
  header.writeUInt16BE(16 * 2 ** entrySelector, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(16 * tables.length - 16 * 2 ** entrySelector, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, index) => {
    const at = 12 + 16 * index;
    header.write(table.tag, at, 'latin1');
    header.writeUInt32BE(table.checksum, at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(table.data.length, at + 12);
    const padded = Buffer.alloc(Math.ceil(table.data.length / 4) * 4);
    table.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

/**
 * The letter's fonts embedded in `pdf`, as subsets of the glyphs it prints. `texts` (what the letter prints) names the
 * subsets (six letters and "+", as PDF asks of subset fonts) so the same letter renders the same bytes: pdf-lib would
 * otherwise add a random suffix to the font's name.
 */
export async function embedLetterFonts(pdf: PDFDocument, texts: readonly string[] = []): Promise<{ regular: PDFFont; bold: PDFFont }> {
  pdf.registerFontkit(await loadFontkit());
  const { regular, bold } = await letterFontBytes();
  const tag = subsetTag(texts);
  return {
    regular: await pdf.embedFont(regular, { subset: true, customName: `${tag}+NotoSans-Regular` }),
    bold: await pdf.embedFont(bold, { subset: true, customName: `${tag}+NotoSans-Bold` }),
  };
}

function subsetTag(texts: readonly string[]): string {
  const digest = createHash('sha256').update(texts.join('\n')).digest();
  return [...digest.subarray(0, 6)].map((byte) => String.fromCharCode(65 + (byte % 26))).join('');
}

/**
 * The text as `font` can draw it: a character the font lacks loses its accent when that leaves one it has, or becomes
 * "?" (as do control characters), rather than printing an empty box or failing the letter. Measured and drawn alike.
 */
export function drawable(text: string, font: PDFFont): string {
  const has = new Set(font.getCharacterSet());
  const control = (code: number) => code < 0x20 || (code >= 0x7f && code < 0xa0);
  const drawn = (char: string) => !control(char.codePointAt(0)!) && has.has(char.codePointAt(0)!);
  return [...text]
    .map((char) => {
      if (drawn(char)) return char;
      const base = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      return base !== '' && [...base].every(drawn) ? base : '?';
    })
    .join('');
}
