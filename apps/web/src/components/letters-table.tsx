import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { letterRoutes, type LetterSummary } from '@portal/contract';
import { downloadRecordFile } from '../lib/download';
import { formatDate, formatDateTime, formatMoney } from '../lib/format';
import { ScrollTable } from './scroll-table';

/** The name a downloaded letter gets: its payment reference identifies it. */
export const letterFileName = (letter: LetterSummary) => `carta-liquidacion-${letter.reference}.pdf`;

export function downloadLetter(letter: LetterSummary): Promise<void> {
  return downloadRecordFile(letterRoutes.pdf, { id: letter.id }, letterFileName(letter));
}

interface LettersTableProps {
  letters: readonly LetterSummary[];
  /** The table's accessible name. */
  label: string;
  /** "Ver" on each row (e.g. the in-page preview), the row shown selected. */
  onShow?: (letter: LetterSummary) => void;
  shown?: string | null;
}

/** A credit's settlement letters, newest first, each downloadable byte for byte as it was issued. */
export function LettersTable({ letters, label, onShow, shown = null }: LettersTableProps) {
  if (letters.length === 0) return <Typography color="text.secondary">Sin cartas de liquidación emitidas.</Typography>;
  return (
    <ScrollTable label={label}>
      <TableHead>
        <TableRow>
          <TableCell>Emitida</TableCell>
          <TableCell>Vigencia</TableCell>
          <TableCell align="right">Importe</TableCell>
          <TableCell>Referencia</TableCell>
          <TableCell>Plantilla</TableCell>
          <TableCell>Emitió</TableCell>
          <TableCell />
        </TableRow>
      </TableHead>
      <TableBody>
        {letters.map((letter) => (
          <TableRow key={letter.id} selected={letter.id === shown}>
            <TableCell>{formatDateTime(letter.issuedAt)}</TableCell>
            <TableCell>{formatDate(letter.validUntil)}</TableCell>
            <TableCell align="right">{formatMoney(letter.totalAmount)}</TableCell>
            <TableCell>{letter.reference}</TableCell>
            <TableCell>
              {letter.brand} v{letter.templateVersion}
            </TableCell>
            <TableCell>{letter.issuedBy ?? '—'}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={1}>
                {onShow && (
                  <Button size="small" onClick={() => onShow(letter)} aria-label={`Ver la carta ${letter.reference}`}>
                    Ver
                  </Button>
                )}
                <Button
                  size="small"
                  startIcon={<FileDownloadOutlined />}
                  onClick={() => void downloadLetter(letter)}
                  aria-label={`Descargar la carta ${letter.reference}`}
                >
                  Descargar
                </Button>
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollTable>
  );
}
