import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Every text run of the PDF's first page with where it starts (x, y) and how wide it is, as pdf.js reads it. */
export async function extractText(pdf: Uint8Array): Promise<{ text: string; x: number; y: number; width: number; size: number }[]> {
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, disableFontFace: true, verbosity: 0 }).promise;
  const page = await document.getPage(1);
  const content = await page.getTextContent();
  const runs = content.items.flatMap((item) =>
    'str' in item && item.str.trim() !== ''
      ? [
          {
            text: item.str,
            x: item.transform[4] as number,
            y: item.transform[5] as number,
            width: item.width,
            size: Math.hypot(item.transform[0] as number, item.transform[1] as number),
          },
        ]
      : [],
  );
  await document.destroy();
  return runs;
}
