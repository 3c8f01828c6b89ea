import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import type { GridColDef } from '@mui/x-data-grid';
import {
  LABEL_ACTIONS,
  LABEL_FILE_MAX_BYTES,
  type CreditListItem,
  type Label,
  type LabelAction,
  type LabelUpdatePreview,
  type LabelUpdateRequest,
  type LabelUpdateRow,
} from '@portal/contract';
import { AGING_BUCKET_LABELS } from '@portal/lending';
import { useConfirm } from '../../components/confirm-dialog';
import { ListScreen } from '../../components/list-screen';
import type { Notice } from '../../components/notice-snackbar';
import { Section } from '../../components/section';
import { StatusChip } from '../../components/status-chip';
import { creditListFilters, creditListQuery, useAgreementOptions } from '../../lib/credit-list';
import { formatBytes, formatMoney } from '../../lib/format';
import { useApplyLabels, useLabelCatalogue, usePreviewLabels, useReadLabelFile } from './labels.queries';

const ACTION_LABELS: Record<LabelAction, string> = { agregar: 'Agregar', quitar: 'Quitar' };

const columns: GridColDef<CreditListItem>[] = [
  { field: 'folio', headerName: 'Folio', width: 130 },
  { field: 'clientName', headerName: 'Cliente', flex: 1, minWidth: 180, sortable: false },
  { field: 'agreement', headerName: 'Convenio', flex: 0.8, minWidth: 150, sortable: false },
  { field: 'company', headerName: 'Empresa', flex: 0.7, minWidth: 140, sortable: false },
  {
    field: 'outstandingBalance',
    headerName: 'Saldo',
    width: 130,
    align: 'right',
    headerAlign: 'right',
    valueFormatter: (value: string) => formatMoney(value),
  },
  { field: 'daysPastDue', headerName: 'Días de atraso', width: 120, align: 'right', headerAlign: 'right' },
  { field: 'bucket', headerName: 'Tramo', width: 130, valueFormatter: (value: CreditListItem['bucket']) => AGING_BUCKET_LABELS[value] },
  {
    field: 'status',
    headerName: 'Estado',
    width: 110,
    sortable: false,
    renderCell: ({ value }) => <StatusChip status={value as string} />,
  },
  {
    field: 'labels',
    headerName: 'Etiquetas',
    flex: 0.8,
    minWidth: 160,
    sortable: false,
    valueFormatter: (value: string[]) => value.join(', '),
  },
];

/** The catalogue's names, once each (an administrator sees every company's catalogue), with their colour. */
function labelChoices(labels: Label[]): Label[] {
  const seen = new Set<string>();
  return labels.filter((label) => !seen.has(label.name) && seen.add(label.name));
}

/** What a row's outcome means for the clerk: the change it makes, or why it is left alone. */
const outcomeText = (row: LabelUpdateRow) =>
  row.outcome === 'aplicable' ? (row.action === 'quitar' ? 'Se quitará' : 'Se agregará') : row.outcome;

/** Label and action for the credits checked in the grid, and their preview. */
function SelectionBar(props: {
  labels: Label[];
  label: string;
  action: LabelAction;
  selected: number;
  busy: boolean;
  onLabel: (label: string) => void;
  onAction: (action: LabelAction) => void;
  onPreview: () => void;
  onClear: () => void;
}) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      useFlexGap
      sx={{ mb: 2, alignItems: { sm: 'center' }, flexWrap: 'wrap' }}
      role="group"
      aria-label="Cambio para los créditos seleccionados"
    >
      <TextField
        select
        label="Etiqueta"
        value={props.label}
        onChange={(event) => props.onLabel(event.target.value)}
        sx={{ minWidth: 200 }}
        size="small"
      >
        {labelChoices(props.labels).map((label) => (
          <MenuItem key={label.id} value={label.name}>
            <Box
              component="span"
              aria-hidden
              sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: label.color, mr: 1, display: 'inline-block' }}
            />
            {label.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label="Acción"
        value={props.action}
        onChange={(event) => props.onAction(event.target.value as LabelAction)}
        sx={{ minWidth: 140 }}
        size="small"
      >
        {LABEL_ACTIONS.map((action) => (
          <MenuItem key={action} value={action}>
            {ACTION_LABELS[action]}
          </MenuItem>
        ))}
      </TextField>
      <Typography aria-live="polite">
        {props.selected === 0 ? 'Marca los créditos en la lista.' : `${props.selected.toLocaleString('es-MX')} créditos seleccionados`}
      </Typography>
      <Button variant="contained" onClick={props.onPreview} disabled={props.busy || props.selected === 0 || props.label === ''}>
        Vista previa
      </Button>
      {props.selected > 0 && <Button onClick={props.onClear}>Quitar selección</Button>}
    </Stack>
  );
}

/** The file path: a CSV or Excel with folio, etiqueta and acción columns, read by the API and previewed. */
function FileSection({ busy, onRead }: { busy: boolean; onRead: (file: File) => void }) {
  return (
    <Section title="Desde un archivo">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Un CSV o Excel (.xlsx) con las columnas folio, etiqueta y acción (agregar o quitar), hasta {formatBytes(LABEL_FILE_MAX_BYTES)}.
      </Typography>
      <Button variant="outlined" component="label" startIcon={<UploadFileOutlined />} disabled={busy}>
        Elegir archivo
        <input
          hidden
          type="file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          aria-label="Archivo de etiquetas"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) onRead(file);
          }}
        />
      </Button>
    </Section>
  );
}

/** Every row's outcome, and "Aplicar" once at least one row changes something. */
function PreviewSection(props: {
  request: LabelUpdateRequest;
  preview: LabelUpdatePreview;
  busy: boolean;
  onApply: () => void;
  onDiscard: () => void;
}) {
  const { preview, request } = props;
  const origin = request.source === 'archivo' ? `archivo ${request.fileName ?? ''}` : 'selección en la lista';
  return (
    <Section title="Vista previa">
      <Typography sx={{ mb: 2 }}>
        {preview.rows.length.toLocaleString('es-MX')} filas ({origin}):{' '}
        <strong>{preview.applicable.toLocaleString('es-MX')} se aplicarán</strong>, {preview.rejected.toLocaleString('es-MX')} no cambian
        nada.
      </Typography>
      <Box sx={{ overflowX: 'auto', maxHeight: 480, mb: 2 }}>
        <Table size="small" stickyHeader aria-label="Resultado por fila">
          <TableHead>
            <TableRow>
              <TableCell>{request.source === 'archivo' ? 'Línea' : '#'}</TableCell>
              <TableCell>Folio</TableCell>
              <TableCell>Cliente</TableCell>
              <TableCell>Etiqueta</TableCell>
              <TableCell>Acción</TableCell>
              <TableCell>Resultado</TableCell>
              <TableCell>Motivo</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {preview.rows.map((row) => (
              <TableRow key={row.line}>
                <TableCell>{row.line}</TableCell>
                <TableCell>{row.folio}</TableCell>
                <TableCell>{row.clientName ?? '—'}</TableCell>
                <TableCell>{row.label}</TableCell>
                <TableCell>{row.action ? ACTION_LABELS[row.action] : '—'}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    label={outcomeText(row)}
                    color={row.outcome === 'aplicable' ? 'success' : 'default'}
                    variant={row.outcome === 'aplicable' ? 'filled' : 'outlined'}
                  />
                </TableCell>
                <TableCell>{row.message ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <Stack direction="row" spacing={2}>
        <Button variant="contained" onClick={props.onApply} disabled={props.busy || preview.applicable === 0}>
          Aplicar
        </Button>
        <Button onClick={props.onDiscard} disabled={props.busy}>
          Descartar
        </Button>
      </Stack>
    </Section>
  );
}

/**
 * Créditos → Actualizar Etiqueta: credits checked in the grid (with the credits list's filters) or a file of folio,
 * etiqueta and acción; a preview gives every row's outcome, and "Aplicar" writes them all in one transaction.
 */
export default function UpdateLabelsScreen() {
  const agreements = useAgreementOptions();
  const catalogue = useLabelCatalogue();
  const readFile = useReadLabelFile();
  const previewLabels = usePreviewLabels();
  const applyLabels = useApplyLabels();
  const confirm = useConfirm();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [label, setLabel] = useState('');
  const [action, setAction] = useState<LabelAction>('agregar');
  const [pending, setPending] = useState<{ request: LabelUpdateRequest; preview: LabelUpdatePreview } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const busy = readFile.isPending || previewLabels.isPending || applyLabels.isPending;

  /** Any change to what would be applied makes the preview stale: it is put away. */
  const changing =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPending(null);
    };

  const preview = async (request: LabelUpdateRequest) => {
    setProblem(null);
    try {
      setPending({ request, preview: await previewLabels.mutateAsync(request) });
    } catch (error) {
      setPending(null);
      setProblem((error as Error).message);
    }
  };

  const previewSelection = () =>
    preview({ source: 'selección', fileName: null, rows: selected.map((folio, index) => ({ line: index + 1, folio, label, action })) });

  const previewFile = async (file: File) => {
    setProblem(null);
    setPending(null);
    try {
      const read = await readFile.mutateAsync(file);
      await preview({ source: 'archivo', fileName: read.fileName, rows: read.rows });
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  const apply = async () => {
    if (!pending) return;
    const count = pending.preview.applicable;
    const agreed = await confirm({
      title: 'Aplicar cambios de etiquetas',
      message:
        count === 1
          ? 'Se aplicará 1 cambio de etiqueta; queda en el historial del crédito. ¿Continuar?'
          : `Se aplicarán ${count.toLocaleString('es-MX')} cambios de etiqueta en una sola operación; cada uno queda en el historial del crédito. ¿Continuar?`,
    });
    if (!agreed) return;
    try {
      const result = await applyLabels.mutateAsync(pending.request);
      const applied =
        result.job.applied === 1 ? 'Se aplicó 1 cambio' : `Se aplicaron ${result.job.applied.toLocaleString('es-MX')} cambios`;
      setNotice({ kind: 'success', text: `${applied} de etiqueta (actualización ${result.job.id.slice(0, 8)}).` });
      setPending(null);
      if (pending.request.source === 'selección') setSelected([]);
    } catch (error) {
      setNotice({ kind: 'error', text: (error as Error).message });
    }
  };

  return (
    <ListScreen<CreditListItem>
      title="Actualizar Etiqueta"
      aria-label="Créditos para etiquetar"
      query={creditListQuery}
      defaults={{ sort: '-folio' }}
      searchLabel="Buscar por folio, CURP, RFC, nombre o número de empleado"
      filters={creditListFilters(agreements)}
      summary={() => (
        <>
          {catalogue.isError && <Alert severity="error">{catalogue.error.message}</Alert>}
          <SelectionBar
            labels={catalogue.data?.items ?? []}
            label={label}
            action={action}
            selected={selected.length}
            busy={busy}
            onLabel={changing(setLabel)}
            onAction={changing(setAction)}
            onPreview={() => void previewSelection()}
            onClear={() => changing(setSelected)([])}
          />
        </>
      )}
      columns={columns}
      getRowId={(row) => row.folio}
      selection={{ ids: selected, onChange: changing(setSelected) }}
      emptyText="No hay créditos con estos filtros."
      storageKey="label-credits"
      hiddenOnPhone={['agreement', 'company', 'outstandingBalance', 'bucket', 'labels']}
      notice={notice}
      onNotice={setNotice}
    >
      <Box sx={{ mt: 3 }}>
        <FileSection busy={busy} onRead={(file) => void previewFile(file)} />
        {problem && (
          <Alert severity="error" sx={{ mb: 3 }}>
            {problem}
          </Alert>
        )}
        {pending && (
          <PreviewSection
            request={pending.request}
            preview={pending.preview}
            busy={busy}
            onApply={() => void apply()}
            onDiscard={() => setPending(null)}
          />
        )}
      </Box>
    </ListScreen>
  );
}
