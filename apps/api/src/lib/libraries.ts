/**
 * Libraries loaded when first used rather than when the server starts: most of a process's hours pass without a
 * spreadsheet or a PDF, and loading exceljs is about 30 MB of an idle process's memory, pdf-lib about 15 MB (issue 20
 * asks for at most 200 MB). Types come from `import type`; values from these, a promise kept after the first load.
 */
function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}

export const loadExcel = onFirstUse(() => import('exceljs').then((module) => module.default));
export const loadPdfLib = onFirstUse(() => import('pdf-lib'));
