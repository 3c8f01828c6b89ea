import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useParams } from 'react-router';
import { paymentFileRoutes, type PaymentFile } from '@portal/contract';
import { DetailList } from '../../components/detail-list';
import { NotFoundState, isNotFound } from '../../components/not-found-state';
import { NoticeSnackbar, type Notice } from '../../components/notice-snackbar';
import { RouteLoading } from '../../components/route-loading';
import { Section } from '../../components/section';
import { StatusChip } from '../../components/status-chip';
import { DownloadButtons } from '../../components/action-buttons';
import { downloadRecordFile } from '../../lib/download';
import { formatBytes, formatDate, formatDateTime } from '../../lib/format';
import { FileActions, FileFigures } from './payment-file-actions';
import { FileRows } from './payment-file-rows';
import { usePaymentFile } from './payment-files.queries';

const byWhom = (who: string | null, when: string | null) => (when ? `${who ?? 'Sistema'} · ${formatDateTime(when)}` : '—');

/** Who did what to the file and when: uploaded, applied, rejected or reverted (with the reason). */
function summary(file: PaymentFile) {
  return [
    { label: 'Convenio', value: file.agreement },
    { label: 'Empresa', value: file.company },
    { label: 'Fecha de descuento', value: formatDate(file.discountDate) },
    { label: 'Archivo', value: `${file.fileName} · ${formatBytes(file.size)} · ${file.encoding}` },
    { label: 'SHA-256', value: file.sha256 },
    { label: 'Cargó', value: byWhom(file.uploadedBy, file.uploadedAt) },
    ...(file.appliedAt ? [{ label: 'Aplicó', value: byWhom(file.appliedBy, file.appliedAt) }] : []),
    ...(file.revertedAt
      ? [{ label: file.status === 'rechazado' ? 'Rechazó' : 'Revirtió', value: byWhom(file.revertedBy, file.revertedAt) }]
      : []),
    ...(file.statusReason ? [{ label: 'Motivo', value: file.statusReason }] : []),
  ];
}

/** The original as uploaded and the result workbook (each row with its outcome and split). */
function Downloads({ file, onError }: { file: PaymentFile; onError: (message: string) => void }) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <DownloadButtons
        downloads={[
          { label: 'Descargar original', run: () => downloadRecordFile(paymentFileRoutes.original, { id: file.id }, file.fileName) },
          {
            label: 'Descargar resultado (Excel)',
            run: () =>
              downloadRecordFile(paymentFileRoutes.result, { id: file.id }, `resultado-${file.fileName.replace(/\.[^.]+$/, '')}.xlsx`),
          },
        ]}
        onError={onError}
      />
    </Stack>
  );
}

/** Detalle del archivo de pagos: its summary and history, totals, application (Aplicar / Revertir), downloads and every row. */
export default function PaymentFileDetailScreen() {
  const { id = '' } = useParams();
  const file = usePaymentFile(id);
  const [notice, setNotice] = useState<Notice | null>(null);

  if (file.isError) {
    if (isNotFound(file.error))
      return <NotFoundState what="El archivo de pagos" backTo="/wallet/files-pay-list" backLabel="Ir a Listado de archivos de pagos" />;
    return <Alert severity="error">{file.error.message}</Alert>;
  }
  if (!file.data) return <RouteLoading />;
  const current = file.data;

  return (
    <>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 3, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h1" component="h1" sx={{ overflowWrap: 'anywhere' }}>
          Archivo {current.fileName}
        </Typography>
        <StatusChip status={current.status} size="medium" />
      </Stack>
      <Section title="Resumen">
        <Stack spacing={3}>
          <DetailList aria-label="Resumen del archivo" items={summary(current)} />
          <Downloads file={current} onError={(text) => setNotice({ kind: 'error', text })} />
        </Stack>
      </Section>
      <Section title="Totales y aplicación">
        <Stack spacing={3}>
          <FileFigures file={current} />
          <FileActions file={current} />
        </Stack>
      </Section>
      <Section title="Filas del archivo">
        <FileRows file={current} all />
      </Section>
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </>
  );
}
