import { DOCUMENT_LABELS, DOCUMENT_MAX_BYTES, DOCUMENT_TYPES, type DocumentKind } from '@portal/contract';
import { formatBytes } from '../../lib/format';

/** What the file pickers offer; the API checks the file's first bytes again. */
export const DOCUMENT_ACCEPT = Object.keys(DOCUMENT_TYPES).join(',');

const TYPE_NAMES = Object.values(DOCUMENT_TYPES);
const ALLOWED_TYPES = TYPE_NAMES.slice(0, -1).join(', ') + ' o ' + TYPE_NAMES.at(-1);

/** Why a chosen file cannot be a request's document (type or size), in Spanish; null when it can. */
export function documentProblem(kind: DocumentKind, file: File): string | null {
  if (!(file.type in DOCUMENT_TYPES)) return `${DOCUMENT_LABELS[kind]}: el archivo debe ser ${ALLOWED_TYPES}.`;
  if (file.size > DOCUMENT_MAX_BYTES) {
    return `${DOCUMENT_LABELS[kind]}: el archivo pesa ${formatBytes(file.size)} y el máximo es ${formatBytes(DOCUMENT_MAX_BYTES)}.`;
  }
  return null;
}
