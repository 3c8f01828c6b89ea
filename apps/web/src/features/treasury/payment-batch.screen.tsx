import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useParams } from 'react-router';
import { paymentOrderRoutes, type PaymentBatch, type PaymentBatchLine, type PaymentLineResultInput } from '@portal/contract';
import { ConfirmedButton, DownloadButtons } from '../../components/action-buttons';
import { DetailList } from '../../components/detail-list';
import { NotFoundState, isNotFound } from '../../components/not-found-state';
import { NoticeSnackbar, type Notice } from '../../components/notice-snackbar';
import { RouteLoading } from '../../components/route-loading';
import { ScrollTable } from '../../components/scroll-table';
import { Section } from '../../components/section';
import { StatusChip } from '../../components/status-chip';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { downloadRecordFile } from '../../lib/download';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { useAuthorizeBatch, useBatchLines, usePaymentBatch, useRecordResults } from './treasury.queries';

const byWhom = (who: string | null, when: string | null) => (when ? `${who ?? 'Sistema'} · ${formatDateTime(when)}` : '—');

function summary(batch: PaymentBatch) {
  return [
    { label: 'Cuenta de origen', value: batch.sourceAccount },
    { label: 'Órdenes', value: batch.orderCount.toLocaleString('es-MX') },
    { label: 'Importe', value: formatMoney(batch.total) },
    { label: 'Liquidadas', value: batch.settledCount.toLocaleString('es-MX') },
    { label: 'Rechazadas', value: batch.rejectedCount.toLocaleString('es-MX') },
    { label: 'Generó', value: byWhom(batch.generatedBy, batch.generatedAt) },
    { label: 'Autorizó', value: byWhom(batch.authorizedBy, batch.authorizedAt) },
  ];
}

type Mark = '' | 'liquidada' | 'rechazada';

/** Registrar resultado: the bank's answer file, or each pending line marked by hand (a rejection with its reason). */
function ResultsDialog({
  batch,
  lines,
  onClose,
  onNotice,
}: {
  batch: PaymentBatch;
  lines: PaymentBatchLine[];
  onClose: () => void;
  onNotice: (notice: Notice) => void;
}) {
  const record = useRecordResults();
  const pending = lines.filter((line) => line.result === 'pendiente');
  const [answer, setAnswer] = useState<{ name: string; text: string } | null>(null);
  const [marks, setMarks] = useState<Record<string, { result: Mark; reason: string }>>({});
  const marked: PaymentLineResultInput[] = Object.entries(marks)
    .filter(([, mark]) => mark.result !== '')
    .map(([trackingKey, mark]) => ({
      trackingKey,
      result: mark.result as 'liquidada' | 'rechazada',
      ...(mark.result === 'rechazada' ? { reason: mark.reason.trim() } : {}),
    }));
  const missingReason = marked.some((line) => line.result === 'rechazada' && !line.reason);
  const ready = (answer !== null || marked.length > 0) && !missingReason;
  return (
    <Dialog open onClose={onClose} aria-labelledby="results-title" maxWidth="md" fullWidth>
      <DialogTitle id="results-title">Registrar resultado</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography>
            Sube la respuesta del banco (CSV: clave de rastreo, LIQUIDADA o RECHAZADA, motivo, fecha) o marca cada línea. Una línea
            rechazada regresa su orden a «por enviar» con el motivo.
          </Typography>
          <Button variant="outlined" component="label">
            {answer ? `Archivo: ${answer.name}` : 'Subir respuesta del banco'}
            <input
              hidden
              type="file"
              accept=".csv,.txt,text/csv,text/plain"
              aria-label="Respuesta del banco"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) void file.text().then((text) => setAnswer({ name: file.name, text }));
              }}
            />
          </Button>
          <ScrollTable label="Líneas por registrar">
            <TableHead>
              <TableRow>
                <TableCell>Clave de rastreo</TableCell>
                <TableCell>Beneficiario</TableCell>
                <TableCell align="right">Importe</TableCell>
                <TableCell>Resultado</TableCell>
                <TableCell>Motivo del rechazo</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {pending.map((line) => {
                const mark = marks[line.trackingKey] ?? { result: '', reason: '' };
                const set = (next: Partial<typeof mark>) =>
                  setMarks((current) => ({ ...current, [line.trackingKey]: { ...mark, ...next } }));
                return (
                  <TableRow key={line.trackingKey}>
                    <TableCell>{line.trackingKey}</TableCell>
                    <TableCell>{line.beneficiary}</TableCell>
                    <TableCell align="right">{formatMoney(line.amount)}</TableCell>
                    <TableCell>
                      <TextField
                        select
                        size="small"
                        label={`Resultado de ${line.trackingKey}`}
                        value={mark.result}
                        onChange={(event) => set({ result: event.target.value as Mark })}
                        sx={{ minWidth: 150 }}
                      >
                        <MenuItem value="">Sin registrar</MenuItem>
                        <MenuItem value="liquidada">Liquidada</MenuItem>
                        <MenuItem value="rechazada">Rechazada</MenuItem>
                      </TextField>
                    </TableCell>
                    <TableCell>
                      {mark.result === 'rechazada' && (
                        <TextField
                          size="small"
                          label={`Motivo de ${line.trackingKey}`}
                          value={mark.reason}
                          onChange={(event) => set({ reason: event.target.value })}
                          error={mark.reason.trim() === ''}
                          helperText={mark.reason.trim() === '' ? 'Escribe el motivo.' : ' '}
                        />
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </ScrollTable>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Cancelar
        </Button>
        <Button
          variant="contained"
          disabled={!ready || record.isPending}
          onClick={() =>
            record.mutate(
              { id: batch.id, ...(marked.length > 0 ? { lines: marked } : {}), ...(answer ? { answer: answer.text } : {}) },
              {
                onSuccess: (outcome) => {
                  onNotice({
                    kind: 'success',
                    text: `Resultado registrado: ${outcome.settled} liquidadas, ${outcome.rejected} rechazadas.`,
                  });
                  onClose();
                },
                onError: (error) => onNotice({ kind: 'error', text: error.message }),
              },
            )
          }
        >
          Registrar
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Actions({ batch, lines, onNotice }: { batch: PaymentBatch; lines: PaymentBatchLine[]; onNotice: (notice: Notice) => void }) {
  const session = useSession();
  const authorize = useAuthorizeBatch();
  const [recording, setRecording] = useState(false);
  const mayAuthorize = hasPermission(session, '/actions/treasury/authorize-batch');
  const bankFile = (format: 'fixed' | 'csv') => () =>
    downloadRecordFile(paymentOrderRoutes.file, { id: batch.id }, `${batch.folio}.${format === 'csv' ? 'csv' : 'txt'}`, { format });
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {batch.status === 'por autorizar' && mayAuthorize && (
        <ConfirmedButton
          variant="contained"
          pending={authorize.isPending}
          confirmation={{
            title: 'Autorizar lote',
            message: `¿Autorizar el lote ${batch.folio}: ${batch.orderCount.toLocaleString('es-MX')} transferencias por ${formatMoney(batch.total)}? Las devoluciones se descuentan del saldo a favor al autorizar.`,
          }}
          onConfirmed={() =>
            authorize.mutate(batch.id, {
              onSuccess: () => onNotice({ kind: 'success', text: 'Lote autorizado: descarga el archivo y envíalo al banco.' }),
              onError: (error) => onNotice({ kind: 'error', text: error.message }),
            })
          }
        >
          Autorizar
        </ConfirmedButton>
      )}
      {batch.status !== 'por autorizar' && (
        <DownloadButtons
          downloads={[
            { label: 'Descargar archivo del banco', run: bankFile('fixed') },
            { label: 'Descargar CSV', run: bankFile('csv') },
          ]}
          onError={(text) => onNotice({ kind: 'error', text })}
        />
      )}
      {batch.status === 'autorizado' && mayAuthorize && (
        <Button variant="outlined" onClick={() => setRecording(true)}>
          Registrar resultado
        </Button>
      )}
      {recording && <ResultsDialog batch={batch} lines={lines} onClose={() => setRecording(false)} onNotice={onNotice} />}
    </Stack>
  );
}

function Lines({ lines }: { lines: PaymentBatchLine[] }) {
  if (lines.length === 0) return <Typography>El lote no tiene líneas.</Typography>;
  return (
    <ScrollTable label="Líneas del lote">
      <TableHead>
        <TableRow>
          <TableCell>Línea</TableCell>
          <TableCell>Orden</TableCell>
          <TableCell>Tipo</TableCell>
          <TableCell>Crédito</TableCell>
          <TableCell>Beneficiario</TableCell>
          <TableCell>CLABE</TableCell>
          <TableCell align="right">Importe</TableCell>
          <TableCell>Concepto</TableCell>
          <TableCell>Referencia</TableCell>
          <TableCell>Clave de rastreo</TableCell>
          <TableCell>Resultado</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {lines.map((line) => (
          <TableRow key={line.trackingKey}>
            <TableCell>{line.line}</TableCell>
            <TableCell>{line.orderFolio}</TableCell>
            <TableCell>{line.kind}</TableCell>
            <TableCell>{line.creditFolio}</TableCell>
            <TableCell>{line.beneficiary}</TableCell>
            <TableCell>{line.clabe}</TableCell>
            <TableCell align="right">{formatMoney(line.amount)}</TableCell>
            <TableCell>{line.concept}</TableCell>
            <TableCell>{line.reference}</TableCell>
            <TableCell>{line.trackingKey}</TableCell>
            <TableCell>
              <StatusChip status={line.result} />
              {line.reason && ` ${line.reason}`}
              {line.settledOn && ` ${formatDate(line.settledOn)}`}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </ScrollTable>
  );
}

/** Un lote: its summary, Autorizar (another person), the bank file, Registrar resultado, and every line. */
export default function PaymentBatchScreen() {
  const { id = '' } = useParams();
  const batch = usePaymentBatch(id);
  const lines = useBatchLines(id);
  const [notice, setNotice] = useState<Notice | null>(null);
  if (batch.isError) {
    if (isNotFound(batch.error)) return <NotFoundState what="El lote" backTo="/treasury/payment-orders" backLabel="Ir a Órdenes de pago" />;
    return <Alert severity="error">{batch.error.message}</Alert>;
  }
  if (!batch.data) return <RouteLoading />;
  const current = batch.data;
  const items = lines.data?.items ?? [];
  return (
    <>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 3, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h1" component="h1">
          Lote {current.folio}
        </Typography>
        <StatusChip status={current.status} size="medium" />
      </Stack>
      <Section title="Resumen">
        <Stack spacing={3}>
          <DetailList aria-label="Resumen del lote" items={summary(current)} />
          <Actions batch={current} lines={items} onNotice={setNotice} />
        </Stack>
      </Section>
      <Section title="Líneas">{lines.isError ? <Alert severity="error">{lines.error.message}</Alert> : <Lines lines={items} />}</Section>
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </>
  );
}
