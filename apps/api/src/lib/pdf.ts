import type * as PdfLib from 'pdf-lib';

/**
 * pdf-lib, loaded when a PDF is first made or read rather than when the server starts: loading it is about 15 MB of an
 * idle process's memory (issue 20 asks for at most 200 MB). Types come from `import type … from 'pdf-lib'`; values
 * from here.
 */
let loading: Promise<typeof PdfLib> | undefined;
export const loadPdfLib = (): Promise<typeof PdfLib> => (loading ??= import('pdf-lib'));
