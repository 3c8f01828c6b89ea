/**
 * Libraries loaded when first used rather than when the server starts: most of a process's hours pass without a
 * spreadsheet or a PDF, and both weigh on an idle process's memory, which issue 20 caps (decision 0021; figures in
 * docs/measurements.md). Types come from `import type`; values from these, a promise kept after the first load.
 */
import type { PDFDocument } from 'pdf-lib';

function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}

export const loadExcel = onFirstUse(() => import('exceljs').then((module) => module.default));
export const loadPdfLib = onFirstUse(() => import('pdf-lib'));
/** fontkit for pdf-lib's embedded fonts (the letters' Noto Sans): a CommonJS bundle, its API on the default export. */
export const loadFontkit = onFirstUse(() =>
  import('@pdf-lib/fontkit').then((module) => (module as unknown as { default: Parameters<PDFDocument['registerFontkit']>[0] }).default),
);
