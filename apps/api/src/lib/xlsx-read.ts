import { crc32, inflateRawSync } from 'node:zlib';

/**
 * Reading an uploaded .xlsx safely. An .xlsx is a zip of XML files, and deflate compresses a repeated cell about
 * 1000:1: a 0.4 MB upload can expand to a 400 MB cell. So the zip is opened here, not by exceljs: every entry is
 * inflated by zlib with `maxOutputLength` (the budget left), so expansion stops at the limit whatever sizes the zip
 * declares; then the sheets' rows and cell lengths are checked before any workbook is built. What passes is handed
 * to exceljs re-packed without compression, so it reads exactly the bytes that were measured.
 */

export interface SpreadsheetLimits {
  /** All entries together, once inflated. */
  maxUncompressedBytes: number;
  /** Rows in any one sheet. */
  maxRows: number;
  /** Characters in any one cell (a value, a shared or an inline string). */
  maxCellLength: number;
  /** Files inside the zip. */
  maxEntries: number;
}

/** A payment file of the architecture's size (100,000 rows of a few short cells) fits well within these. */
export const SPREADSHEET_LIMITS: SpreadsheetLimits = {
  maxUncompressedBytes: 50 * 1024 * 1024,
  maxRows: 100_000,
  maxCellLength: 1_000,
  maxEntries: 500,
};

/** A file that is not a readable .xlsx. */
export class SpreadsheetError extends Error {}

/** A file refused for breaking a limit; the message (Spanish, for the clerk) states the limit. */
export class SpreadsheetLimitError extends SpreadsheetError {}

const INVALID = 'El archivo no es un Excel (.xlsx) válido.';
const number = (value: number) => value.toLocaleString('es-MX');

export const limitMessages = (limits: SpreadsheetLimits = SPREADSHEET_LIMITS) => ({
  uncompressed: `El archivo descomprimido ocupa más de ${number(limits.maxUncompressedBytes / (1024 * 1024))} MB, el máximo que se lee. Quita hojas, imágenes o formatos que no se usan, o divide el archivo.`,
  rows: `Una hoja del archivo tiene más de ${number(limits.maxRows)} filas, el máximo que se lee. Divide el archivo en varios.`,
  cell: `Una celda del archivo tiene más de ${number(limits.maxCellLength)} caracteres, el máximo que se lee por celda. Revisa que sea el archivo correcto.`,
  entries: `El archivo contiene más de ${number(limits.maxEntries)} partes internas, el máximo que se lee.`,
});

interface Entry {
  name: string;
  data: Buffer;
}

/** The zip's entries, each inflated under the remaining budget; refuses zip64, encryption and unknown methods. */
function inflateEntries(content: Buffer, limits: SpreadsheetLimits): Entry[] {
  const messages = limitMessages(limits);
  // End of central directory: 22 bytes plus a comment of up to 64 KiB, at the very end.
  let eocd = -1;
  for (let offset = content.length - 22; offset >= Math.max(0, content.length - 22 - 0xffff); offset -= 1) {
    if (content.readUInt32LE(offset) === 0x06054b50) {
      eocd = offset;
      break;
    }
  }
  if (eocd < 0) throw new SpreadsheetError(INVALID);
  const count = content.readUInt16LE(eocd + 10);
  let cursor = content.readUInt32LE(eocd + 16);
  if (count === 0xffff || cursor === 0xffffffff) throw new SpreadsheetError(INVALID);
  if (count > limits.maxEntries) throw new SpreadsheetLimitError(messages.entries);

  const entries: Entry[] = [];
  let budget = limits.maxUncompressedBytes;
  for (let index = 0; index < count; index += 1) {
    if (cursor + 46 > content.length || content.readUInt32LE(cursor) !== 0x02014b50) throw new SpreadsheetError(INVALID);
    const flags = content.readUInt16LE(cursor + 8);
    const method = content.readUInt16LE(cursor + 10);
    const compressedSize = content.readUInt32LE(cursor + 20);
    const nameLength = content.readUInt16LE(cursor + 28);
    const next = cursor + 46 + nameLength + content.readUInt16LE(cursor + 30) + content.readUInt16LE(cursor + 32);
    const local = content.readUInt32LE(cursor + 42);
    const name = content.subarray(cursor + 46, cursor + 46 + nameLength).toString('utf8');
    cursor = next;
    if (flags & 0x1 || (method !== 0 && method !== 8)) throw new SpreadsheetError(INVALID);
    if (local + 30 > content.length || content.readUInt32LE(local) !== 0x04034b50) throw new SpreadsheetError(INVALID);
    const start = local + 30 + content.readUInt16LE(local + 26) + content.readUInt16LE(local + 28);
    if (start + compressedSize > content.length) throw new SpreadsheetError(INVALID);
    const raw = content.subarray(start, start + compressedSize);
    if (name.endsWith('/')) continue;
    let data: Buffer;
    if (method === 0) {
      if (raw.length > budget) throw new SpreadsheetLimitError(messages.uncompressed);
      data = Buffer.from(raw);
    } else {
      try {
        // One byte over the budget is enough to know it is too much; zlib stops there.
        data = inflateRawSync(raw, { maxOutputLength: budget + 1 });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new SpreadsheetLimitError(messages.uncompressed);
        throw new SpreadsheetError(INVALID);
      }
      if (data.length > budget) throw new SpreadsheetLimitError(messages.uncompressed);
    }
    budget -= data.length;
    entries.push({ name, data });
  }
  return entries;
}

/** Text length of an XML text node, counting each entity (`&amp;`, `&#10;`) as the one character it stands for. */
const textLength = (xml: string) => xml.length - [...xml.matchAll(/&[#\w]{1,10};/g)].reduce((sum, [entity]) => sum + entity.length - 1, 0);

/** Rows per sheet and the length of every value and string, checked on the XML as it is scanned. */
function checkSheets(entries: Entry[], limits: SpreadsheetLimits): void {
  const messages = limitMessages(limits);
  for (const { name, data } of entries) {
    const isSheet = /^xl\/worksheets\/[^/]+\.xml$/.test(name);
    if (!isSheet && name !== 'xl/sharedStrings.xml') continue;
    const xml = data.toString('utf8');
    if (isSheet) {
      const rowTag = /<row[\s>/]/g;
      for (let rows = 1; rowTag.exec(xml); rows += 1) {
        if (rows > limits.maxRows) throw new SpreadsheetLimitError(messages.rows);
      }
    }
    for (const [, , text] of xml.matchAll(/<(v|t)(?:\s[^>]*)?>([^<]*)<\/\1>/g)) {
      if (text!.length > limits.maxCellLength && textLength(text!) > limits.maxCellLength) throw new SpreadsheetLimitError(messages.cell);
    }
  }
}

/** A zip without compression ("stored"), as small a writer as the format allows. */
function storedZip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt16LE(0, 8);
    local.writeUInt32LE(0x00210000, 10); // 1980-01-01 00:00
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * Checks an uploaded .xlsx against the limits while inflating it and answers the same workbook, uncompressed, for
 * exceljs to load. Throws SpreadsheetLimitError with a Spanish message naming the limit it broke,
 * SpreadsheetError when it is no zip at all.
 */
export function openSpreadsheet(content: Buffer, limits: SpreadsheetLimits = SPREADSHEET_LIMITS): Buffer {
  if (content.length < 22) throw new SpreadsheetError(INVALID);
  const entries = inflateEntries(content, limits);
  checkSheets(entries, limits);
  return storedZip(entries);
}
