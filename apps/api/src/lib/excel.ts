import type ExcelJS from 'exceljs';

/**
 * exceljs, loaded when a spreadsheet is first read or written rather than when the server starts: loading it is about
 * 30 MB of an idle process's memory (issue 20 asks for at most 200 MB), and most of a process's hours pass without a
 * spreadsheet. Types come from `import type ExcelJS from 'exceljs'`; values from here.
 */
let loading: Promise<typeof ExcelJS> | undefined;
export const loadExcel = (): Promise<typeof ExcelJS> => (loading ??= import('exceljs').then((module) => module.default));
