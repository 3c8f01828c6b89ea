import { useState, type DragEvent } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { useSearchParams } from 'react-router';
import { PAYMENT_FILE_MAX_BYTES, PAYMENT_FILE_MAX_ROWS, type PaymentFile, type UploadOption } from '@portal/contract';
import { NotFoundState, isNotFound } from '../../components/not-found-state';
import { RouteLoading } from '../../components/route-loading';
import { Section } from '../../components/section';
import { StatusChip } from '../../components/status-chip';
import { formatBytes, formatDate } from '../../lib/format';
import { FileActions, FileFigures } from './payment-file-actions';
import { FileRows } from './payment-file-rows';
import { usePaymentFile, useUploadOptions, useUploadPaymentFile } from './payment-files.queries';

const FORMAT_LABELS: Record<UploadOption['format'], string> = { csv: 'CSV', xlsx: 'Excel (xlsx)', fixed: 'Texto de ancho fijo' };
const LIMITS = `Hasta ${formatBytes(PAYMENT_FILE_MAX_BYTES)} y ${PAYMENT_FILE_MAX_ROWS.toLocaleString('es-MX')} filas.`;

/** What is wrong with a file before sending it, in the clerk's words; null when it may go. */
function fileProblem(file: File): string | null {
  if (file.size === 0) return `El archivo ${file.name} está vacío.`;
  if (file.size > PAYMENT_FILE_MAX_BYTES)
    return `El archivo ${file.name} pesa ${formatBytes(file.size)}; el máximo es ${formatBytes(PAYMENT_FILE_MAX_BYTES)}.`;
  return null;
}

/** Agreement, discount date and the file (dropped or chosen), sent with its progress; the API's refusal is shown as it says it. */
function UploadForm({ onUploaded }: { onUploaded: (file: PaymentFile) => void }) {
  const options = useUploadOptions();
  const send = useUploadPaymentFile();
  const [agreementId, setAgreementId] = useState('');
  const [discountDate, setDiscountDate] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const option = options.data?.find((entry) => entry.agreementId === agreementId);
  const uploading = progress !== null;

  const choose = (id: string) => {
    const next = options.data?.find((entry) => entry.agreementId === id);
    setAgreementId(id);
    setDiscountDate(next?.suggestedDate ?? next?.discountDates[0] ?? '');
    setProblem(null);
  };

  const pick = async (file: File) => {
    if (!agreementId || !discountDate) {
      setProblem('Elige el convenio y la fecha de descuento antes de cargar el archivo.');
      return;
    }
    const wrong = fileProblem(file);
    setProblem(wrong);
    if (wrong) return;
    setProgress(0);
    try {
      onUploaded(await send.mutateAsync({ agreementId, discountDate, file, onProgress: setProgress }));
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setProgress(null);
    }
  };

  const drop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !uploading) void pick(file);
  };

  return (
    <Stack spacing={3}>
      {options.isError && <Alert severity="error">{options.error.message}</Alert>}
      {options.data?.length === 0 && <Alert severity="info">No hay convenios vigentes con layout de archivo de pagos.</Alert>}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextField
          select
          label="Convenio"
          value={agreementId}
          onChange={(event) => choose(event.target.value)}
          sx={{ minWidth: 320 }}
          disabled={uploading}
        >
          {(options.data ?? []).map((entry) => (
            <MenuItem key={entry.agreementId} value={entry.agreementId}>
              {entry.agreement} · {entry.company}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Fecha de descuento"
          value={discountDate}
          onChange={(event) => setDiscountDate(event.target.value)}
          sx={{ minWidth: 220 }}
          disabled={!option || uploading}
        >
          {(option?.discountDates ?? []).map((date) => (
            <MenuItem key={date} value={date}>
              {formatDate(date)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {option && (
        <Typography color="text.secondary">
          Empresa: {option.company} · Formato del layout: {FORMAT_LABELS[option.format]}
        </Typography>
      )}
      <Box
        component="section"
        aria-label="Zona para soltar el archivo"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          borderRadius: 2,
          p: 4,
          textAlign: 'center',
          bgcolor: dragging ? 'action.hover' : 'transparent',
        }}
      >
        <UploadFileOutlined sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
        <Typography sx={{ mb: 2 }}>Arrastra aquí el archivo de pagos del convenio, o elígelo. {LIMITS}</Typography>
        <Button variant="contained" component="label" disabled={uploading}>
          Elegir archivo
          <input
            hidden
            type="file"
            aria-label="Archivo de pagos"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void pick(file);
            }}
          />
        </Button>
        {uploading && (
          <Stack spacing={0.5} sx={{ mt: 3 }}>
            <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label="Subiendo el archivo" />
            <Typography variant="body2">Subiendo y validando el archivo…</Typography>
          </Stack>
        )}
      </Box>
      {problem && (
        <Alert severity="error" role="alert">
          <AlertTitle>No se cargó el archivo</AlertTitle>
          {problem}
        </Alert>
      )}
    </Stack>
  );
}

/** The uploaded file's preview, its application and outcome; read from the URL, so a reload comes back to it. */
function UploadedFile({ id, onAnother }: { id: string; onAnother: () => void }) {
  const file = usePaymentFile(id);
  if (file.isError) {
    if (isNotFound(file.error)) return <NotFoundState what="El archivo" backTo="/wallet/upload-file-pay" backLabel="Cargar otro archivo" />;
    return <Alert severity="error">{file.error.message}</Alert>;
  }
  if (!file.data) return <RouteLoading />;
  const current = file.data;
  return (
    <>
      <Section title="Vista previa">
        <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 600 }}>{current.fileName}</Typography>
          <StatusChip status={current.status} />
          <Typography color="text.secondary">
            {current.agreement} · {current.company} · descuento del {formatDate(current.discountDate)}
          </Typography>
          <Button sx={{ ml: 'auto' }} onClick={onAnother}>
            Cargar otro archivo
          </Button>
        </Stack>
        <Stack spacing={3}>
          <FileFigures file={current} />
          <FileActions file={current} detailLink />
        </Stack>
      </Section>
      <Section title="Filas del archivo">
        <FileRows file={current} />
      </Section>
    </>
  );
}

/** Cartera → Carga archivos de pagos: upload an employer's payment file, review its preview, and apply or reject it. */
export default function PaymentFileUploadScreen() {
  const [params, setParams] = useSearchParams();
  const fileId = params.get('file');
  return (
    <Paper sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h1" component="h1" gutterBottom>
        Carga archivos de pagos
      </Typography>
      {fileId ? (
        <UploadedFile key={fileId} id={fileId} onAnother={() => setParams({})} />
      ) : (
        <UploadForm onUploaded={(file) => setParams({ file: file.id })} />
      )}
    </Paper>
  );
}
