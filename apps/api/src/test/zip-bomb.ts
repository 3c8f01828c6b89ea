import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/** A zip entry as stored: its (possibly deflated) bytes and what it declares about the original. */
export interface ZipEntry {
  name: string;
  method: 0 | 8;
  data: Buffer;
  declaredSize: number;
  crc: number;
}

/**
 * A valid .xlsx (Excel and exceljs open it) whose one sheet holds a single inline-string cell of `megabytes` MB of
 * "A": deflate shrinks it about 1000:1, so 400 MB arrive as ~0.4 MB. With `lie`, the zip declares the sheet as 1 KB,
 * to show the reader trusts no declared size. Built in streaming chunks: the test never holds the expanded text.
 */
export async function xlsxBomb(megabytes: number, options: { lie?: boolean } = {}): Promise<Buffer> {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>';
  const tail = '</t></is></c></row></sheetData></worksheet>';
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise((resolve) => deflate.on('end', resolve));
  const megabyte = Buffer.alloc(1024 * 1024, 'A');
  let crc = crc32(head);
  deflate.write(head);
  for (let written = 0; written < megabytes; written += 1) {
    crc = crc32(megabyte, crc);
    if (!deflate.write(megabyte)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  crc = crc32(tail, crc);
  deflate.end(tail);
  await finished;
  const size = head.length + megabytes * megabyte.length + tail.length;
  return minimalXlsx({ method: 8, data: Buffer.concat(chunks), declaredSize: options.lie ? 1024 : size, crc });
}

const RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A deflated entry that declares its true size and checksum. */
export function deflated(name: string, text: string): ZipEntry {
  const data = Buffer.from(text);
  return { name, method: 8, data: deflateRawSync(data), declaredSize: data.length, crc: crc32(data) };
}

/** The smallest workbook Excel and exceljs open: one sheet, "Descuentos", given as a zip entry or as its XML. */
export function minimalXlsx(sheet: Omit<ZipEntry, 'name'> | string): Buffer {
  const part = (name: string, xml: string) => deflated(name, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${xml}`);
  return zip([
    part(
      '[Content_Types].xml',
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ),
    part(
      '_rels/.rels',
      `<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    part(
      'xl/workbook.xml',
      `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${OFFICE}"><sheets><sheet name="Descuentos" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    part(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    typeof sheet === 'string' ? deflated('xl/worksheets/sheet1.xml', sheet) : { name: 'xl/worksheets/sheet1.xml', ...sheet },
  ]);
}

/** A zip of the given entries (already compressed when method is 8), with whatever sizes they declare. */
export function zip(entries: ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(entry.method, 10);
    header.writeUInt32LE(entry.crc >>> 0, 16);
    header.writeUInt32LE(entry.data.length, 20);
    header.writeUInt32LE(entry.declaredSize, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    parts.push(local, name, entry.data);
    central.push(header, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}
