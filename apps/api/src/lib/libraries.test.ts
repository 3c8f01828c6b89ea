import { describe, expect, it } from 'vitest';
import { loadExcel, loadPdfLib } from './libraries';

describe('libraries loaded on first use', () => {
  it('loads each library once and answers the same module to every caller', async () => {
    expect(loadExcel()).toBe(loadExcel());
    expect(loadPdfLib()).toBe(loadPdfLib());
    const [excel, pdf] = await Promise.all([loadExcel(), loadPdfLib()]);
    expect(typeof excel.Workbook).toBe('function');
    expect(typeof pdf.PDFDocument.create).toBe('function');
  });
});
