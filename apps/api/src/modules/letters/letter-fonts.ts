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
/** The two TrueType files, read once (about 630 kB each) and kept: every letter embeds the subset it prints. */
export function letterFontBytes(): Promise<{ regular: Buffer; bold: Buffer }> {
  return (fontBytes ??= Promise.all([
    readFile(resolveFromHere(LETTER_FONT_FILES.regular)),
    readFile(resolveFromHere(LETTER_FONT_FILES.bold)),
  ]).then(([regular, bold]) => ({ regular, bold })));
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
