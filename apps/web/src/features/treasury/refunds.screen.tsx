import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import type { Refund, RefundCandidate, RefundClabeSource } from '@portal/contract';
import { useConfirm } from '../../components/confirm-dialog';
import { ListScreen } from '../../components/list-screen';
import { ReasonDialog } from '../../components/reason-dialog';
import type { Notice } from '../../components/notice-snackbar';
import { localPageGrid } from '../../components/page-grid';
import { ServerDataGrid } from '../../components/server-data-grid';
import { StatusChip } from '../../components/status-chip';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import type { ListState } from '../../lib/list-state';
import { refundCandidateListQuery, useDecideRefund, useRefunds, useRequestRefund } from './treasury.queries';

const money = { align: 'right', headerAlign: 'right', sortable: false, valueFormatter: (value: string) => formatMoney(value) } as const;

/** Solicitar devolución: the amount (at most what is available) to the CLABE on record or a new one with its evidence. */
function RequestDialog({
  candidate,
  onClose,
  onNotice,
}: {
  candidate: RefundCandidate;
  onClose: () => void;
  onNotice: (notice: Notice) => void;
}) {
  const request = useRequestRefund();
  const [amount, setAmount] = useState(candidate.available);
  const [source, setSource] = useState<RefundClabeSource>('expediente');
  const [clabe, setClabe] = useState('');
  const [evidence, setEvidence] = useState('');
  const ready = amount.trim() !== '' && (source === 'expediente' || (/^\d{18}$/.test(clabe) && evidence.trim().length >= 5));
  return (
    <Dialog open onClose={onClose} aria-labelledby="refund-title">
      <DialogTitle id="refund-title">Solicitar devolución</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography>
            {`${candidate.creditFolio} · ${candidate.client}: saldo a favor ${formatMoney(candidate.creditBalance)}, disponible para devolver ${formatMoney(candidate.available)}.`}
          </Typography>
          <TextField
            label="Importe a devolver"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
          <RadioGroup
            value={source}
            onChange={(event) => setSource(event.target.value as RefundClabeSource)}
            aria-label="CLABE de la devolución"
          >
            <FormControlLabel value="expediente" control={<Radio />} label={`CLABE del expediente (${candidate.clabe})`} />
            <FormControlLabel value="nueva" control={<Radio />} label="Otra CLABE, con su evidencia" />
          </RadioGroup>
          {source === 'nueva' && (
            <>
              <TextField
                label="CLABE nueva"
                value={clabe}
                onChange={(event) => setClabe(event.target.value.replace(/\D/g, '').slice(0, 18))}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
              <TextField
                label="Evidencia"
                helperText="Por ejemplo: estado de cuenta de noviembre a nombre del acreditado, recibido por correo."
                value={evidence}
                onChange={(event) => setEvidence(event.target.value)}
                multiline
                minRows={2}
              />
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Cancelar
        </Button>
        <Button
          variant="contained"
          disabled={!ready || request.isPending}
          onClick={() =>
            request.mutate(
              { creditId: candidate.creditId, amount, clabeSource: source, ...(source === 'nueva' ? { clabe, evidence } : {}) },
              {
                onSuccess: () => {
                  onNotice({ kind: 'success', text: 'Devolución solicitada: otra persona debe aprobarla.' });
                  onClose();
                },
                onError: (error) => onNotice({ kind: 'error', text: error.message }),
              },
            )
          }
        >
          Solicitar
        </Button>
      </DialogActions>
    </Dialog>
  );
}

const FIRST_PAGE: ListState = { page: 1, pageSize: 10, sort: null, q: '', filters: {} };

/** The refunds asked for: Aprobar or Declinar (another person than who asked), and where each one's money is. */
function RefundRequests({ onNotice }: { onNotice: (notice: Notice) => void }) {
  const session = useSession();
  const confirm = useConfirm();
  const decide = useDecideRefund();
  const [state, setState] = useState(FIRST_PAGE);
  const refunds = useRefunds(state.page, state.pageSize);
  const mayApprove = hasPermission(session, '/actions/wallet/approve-refund');
  const [declining, setDeclining] = useState<Refund | null>(null);
  const closeDecline = () => {
    setDeclining(null);
    decide.reset();
  };
  const act = async (refund: Refund, decision: 'aprobar' | 'declinar') => {
    if (decision === 'aprobar') {
      const yes = await confirm({
        title: 'Aprobar devolución',
        message: `¿Aprobar la devolución ${refund.folio} de ${formatMoney(refund.amount)} a ${refund.client} (CLABE ${refund.clabe})? Entrará en el siguiente lote de órdenes de pago.`,
      });
      if (yes)
        decide.mutate(
          { id: refund.id, body: { decision } },
          {
            onSuccess: () => onNotice({ kind: 'success', text: 'Devolución aprobada: entra en el siguiente lote.' }),
            onError: (error) => onNotice({ kind: 'error', text: error.message }),
          },
        );
      return;
    }
    setDeclining(refund);
  };
  const columns: GridColDef<Refund>[] = [
    { field: 'folio', headerName: 'Devolución', width: 120, sortable: false },
    { field: 'creditFolio', headerName: 'Crédito', width: 130, sortable: false },
    {
      field: 'actions',
      headerName: 'Decisión',
      width: 220,
      sortable: false,
      renderCell: ({ row }) =>
        row.status === 'solicitada' && mayApprove ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', height: '100%' }}>
            <Button size="small" variant="contained" disabled={decide.isPending} onClick={() => void act(row, 'aprobar')}>
              Aprobar
            </Button>
            <Button size="small" color="error" disabled={decide.isPending} onClick={() => void act(row, 'declinar')}>
              Declinar
            </Button>
          </Stack>
        ) : null,
    },
    { field: 'client', headerName: 'Acreditado', flex: 1, minWidth: 180, sortable: false },
    { field: 'amount', headerName: 'Importe', width: 130, ...money },
    { field: 'clabe', headerName: 'CLABE', width: 190, sortable: false },
    {
      field: 'status',
      headerName: 'Estado',
      width: 230,
      sortable: false,
      renderCell: ({ row }) => (
        <>
          <StatusChip status={row.status} />
          {row.orderStatus && row.status === 'aprobada' && ` orden ${row.orderStatus}`}
        </>
      ),
    },
    {
      field: 'note',
      headerName: 'Nota',
      flex: 1,
      minWidth: 200,
      sortable: false,
      valueGetter: (_value, row) => row.declineReason ?? row.lastRejectionReason ?? row.evidence ?? '—',
    },
    {
      field: 'requestedBy',
      headerName: 'Solicitó',
      width: 220,
      sortable: false,
      valueGetter: (_value, row) => `${row.requestedBy ?? 'Sistema'} · ${formatDateTime(row.requestedAt)}`,
    },
  ];
  return (
    <Stack spacing={2} sx={{ mt: 3 }}>
      <Typography variant="h2" component="h2">
        Devoluciones solicitadas
      </Typography>
      <ServerDataGrid<Refund>
        aria-label="Devoluciones"
        columns={columns}
        {...localPageGrid(refunds, state, setState)}
        emptyText="Aún no hay devoluciones."
        hiddenOnPhone={['folio', 'clabe', 'note', 'requestedBy']}
      />
      {declining && (
        <ReasonDialog
          title="Declinar devolución"
          message={`¿Declinar la devolución ${declining.folio} de ${formatMoney(declining.amount)} a ${declining.client}? Su importe vuelve a estar disponible para otra solicitud.`}
          confirmLabel="Sí, declinar"
          busy={decide.isPending}
          failure={decide.isError ? decide.error.message : null}
          onClose={closeDecline}
          onConfirm={(reason) =>
            decide.mutate(
              { id: declining.id, body: { decision: 'declinar', reason } },
              {
                onSuccess: () => {
                  closeDecline();
                  onNotice({ kind: 'success', text: 'Devolución declinada.' });
                },
              },
            )
          }
        />
      )}
    </Stack>
  );
}

/** Cartera → Devoluciones: credits with saldo a favor (Solicitar devolución), and the refunds asked for. */
export default function RefundsScreen() {
  const session = useSession();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [chosen, setChosen] = useState<RefundCandidate | null>(null);
  const mayRequest = hasPermission(session, '/actions/wallet/request-refund');
  const columns: GridColDef<RefundCandidate>[] = [
    { field: 'creditFolio', headerName: 'Crédito', width: 130, sortable: false },
    {
      field: 'request',
      headerName: '',
      width: 200,
      sortable: false,
      renderCell: ({ row }) =>
        mayRequest && row.available !== '0.00' ? (
          <Button size="small" variant="outlined" onClick={() => setChosen(row)}>
            Solicitar devolución
          </Button>
        ) : null,
    },
    { field: 'client', headerName: 'Acreditado', flex: 1, minWidth: 200, sortable: false },
    { field: 'creditBalance', headerName: 'Saldo a favor', width: 140, ...money },
    { field: 'committed', headerName: 'Ya solicitado', width: 140, ...money },
    { field: 'available', headerName: 'Disponible', width: 140, ...money },
    {
      field: 'since',
      headerName: 'Desde',
      width: 120,
      sortable: false,
      valueFormatter: (value: string | null) => (value ? formatDate(value) : '—'),
    },
  ];
  return (
    <ListScreen<RefundCandidate>
      title="Devoluciones"
      aria-label="Créditos con saldo a favor"
      query={refundCandidateListQuery}
      searchLabel="Buscar por folio o nombre"
      columns={columns}
      getRowId={(row) => row.creditId}
      emptyText="Ningún crédito tiene saldo a favor."
      storageKey="refund-candidates"
      hiddenOnPhone={['committed', 'since']}
      notice={notice}
      onNotice={setNotice}
    >
      <RefundRequests onNotice={setNotice} />
      {chosen && <RequestDialog candidate={chosen} onClose={() => setChosen(null)} onNotice={setNotice} />}
    </ListScreen>
  );
}
