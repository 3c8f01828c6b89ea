import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { Link } from 'react-router';
import {
  REQUEST_ACTIONS,
  requestActionBodySchemas,
  type Request as LoanRequest,
  type RequestAction,
  type RequestStatus,
} from '@portal/contract';
import { hasPermission, type Session } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { useConfirm } from '../../components/confirm-dialog';
import { DateField } from '../../components/date-field';
import { DetailList } from '../../components/detail-list';
import { formatDate, formatMoney } from '../../lib/format';
import { ApiError } from '../../lib/api';
import { useDisburseRequest, useRenewableCredits, useRequestTransition } from './origination.queries';

/** What the detail panel tells after an action: its outcome, and the credit a disbursement created. */
export interface PanelNotice {
  kind: 'success' | 'error';
  text: string;
  credit?: { id: string; folio: string };
}

/**
 * The actions the status machine allows from the request's status that this user may take. The API enforces the
 * same rules (and refuses whoever captured or changed a request deciding it); the browser only hides what would be refused.
 */
export function availableActions(request: Pick<LoanRequest, 'status' | 'capturedByIds'>, session: Session | null): RequestAction[] {
  return (Object.keys(REQUEST_ACTIONS) as RequestAction[]).filter((action) => {
    const rule = REQUEST_ACTIONS[action];
    if (!(rule.from as readonly RequestStatus[]).includes(request.status)) return false;
    if (rule.permission && !hasPermission(session, rule.permission)) return false;
    const decides = action === 'approve' || action === 'reject';
    return !(decides && session !== null && request.capturedByIds.includes(session.user.id));
  });
}

/** Dialog titles that read as a sentence: "Enviar solicitud a validación", "Aprobar solicitud". */
const TITLES: Record<RequestAction, string> = {
  submit: 'Enviar solicitud a validación',
  approve: 'Aprobar solicitud',
  reject: 'Rechazar solicitud',
  cancel: 'Cancelar solicitud',
  disburse: 'Dispersar solicitud',
};
export const actionTitle = (action: RequestAction, folio?: string) => (folio ? `${TITLES[action]} ${folio}` : TITLES[action]);

const COLORS: Record<RequestAction, 'primary' | 'success' | 'error' | 'inherit'> = {
  submit: 'primary',
  approve: 'success',
  reject: 'error',
  cancel: 'inherit',
  disburse: 'primary',
};

/** One value asked before an action (a reason, a date), checked with the action's shared schema. */
function ActionDialog(props: {
  title: string;
  confirmLabel: string;
  field: { label: string; type: 'text' | 'date'; initial: string; schema: z.ZodType<string> };
  busy: boolean;
  children?: ReactNode;
  onClose: () => void;
  onConfirm: (value: string) => void;
}) {
  const [value, setValue] = useState(props.field.initial);
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    const parsed = props.field.schema.safeParse(value);
    if (parsed.success) props.onConfirm(parsed.data);
    else setError(parsed.error.issues[0]?.message ?? 'Valor no válido.');
  };
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby="request-action-title">
      <DialogTitle id="request-action-title">{props.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {props.children}
          {props.field.type === 'date' ? (
            <DateField
              label={props.field.label}
              value={value}
              onChange={(next) => {
                setValue(next);
                setError(null);
              }}
              error={error}
              fullWidth
            />
          ) : (
            <TextField
              autoFocus
              label={props.field.label}
              multiline
              minRows={3}
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
                setError(null);
              }}
              error={error !== null}
              helperText={error}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>No, volver</Button>
        <Button variant="contained" onClick={confirm} disabled={props.busy}>
          {props.confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The buttons of the request's allowed actions, each confirmed before it runs; outcomes go to `onNotice`. */
export function RequestActions({
  request,
  today,
  onNotice,
}: {
  request: LoanRequest;
  today: string;
  onNotice: (notice: PanelNotice) => void;
}) {
  const session = useSession();
  const confirm = useConfirm();
  const transition = useRequestTransition(request.id);
  const disburse = useDisburseRequest(request.id);
  const [asking, setAsking] = useState<'reject' | 'cancel' | 'disburse' | null>(null);
  const busy = transition.isPending || disburse.isPending;
  // A renewal disburses on the company's fecha flujo (its payoffs' date), which a day's close may have moved past today.
  const renewing = asking === 'disburse' && request.simulation.renewal !== undefined;
  const fechaFlujo = useRenewableCredits(renewing ? request.curp : '');
  const actions = availableActions(request, session);
  const editable = request.status === 'capturada' && hasPermission(session, '/origination/request-new');

  const moved = (action: RequestAction) =>
    onNotice({ kind: 'success', text: `Solicitud ${request.folio}: ${REQUEST_ACTIONS[action].to}.` });
  const refused = (error: unknown) => onNotice({ kind: 'error', text: (error as Error).message });

  const transit = async (action: Exclude<RequestAction, 'disburse'>, reason?: string) => {
    try {
      await transition.mutateAsync({
        action,
        body: reason === undefined ? { version: request.version } : { version: request.version, reason },
      });
      moved(action);
    } catch (error) {
      refused(error);
    } finally {
      setAsking(null);
    }
  };

  const start = async (action: RequestAction) => {
    if (action === 'reject' || action === 'cancel' || action === 'disburse') {
      setAsking(action);
      return;
    }
    const { verb } = REQUEST_ACTIONS[action];
    if (await confirm({ title: actionTitle(action), message: `¿Seguro que quieres ${verb} la solicitud ${request.folio}?` }))
      await transit(action);
  };

  const disburseOn = async (disbursementDate: string, expectedNetAmount?: string) => {
    try {
      const result = await disburse.mutateAsync({
        version: request.version,
        disbursementDate,
        ...(expectedNetAmount !== undefined ? { expectedNetAmount } : {}),
      });
      onNotice({
        kind: 'success',
        text: request.simulation.renewal
          ? `Solicitud ${request.folio} dispersada: crédito ${result.creditFolio}; renovación, a transferir ${formatMoney(result.amountToTransfer)}.`
          : `Solicitud ${request.folio} dispersada: crédito ${result.creditFolio}.`,
        credit: { id: result.creditId, folio: result.creditFolio },
      });
    } catch (error) {
      // A renewal whose payoffs moved since approval: the person disbursing sees the change and confirms the new net.
      const changed = error instanceof ApiError ? error.fieldErrors.find((entry) => entry.field === 'expectedNetAmount') : undefined;
      if (changed && expectedNetAmount === undefined) {
        setAsking(null);
        if (
          await confirm({
            title: 'Los finiquitos cambiaron',
            message: `${(error as Error).message} ¿Dispersar con el nuevo monto neto de ${formatMoney(changed.message)}?`,
          })
        )
          await disburseOn(disbursementDate, changed.message);
        return;
      }
      refused(error);
    } finally {
      setAsking(null);
    }
  };

  if (actions.length === 0 && !editable) return null;
  return (
    <>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} aria-label="Acciones de la solicitud" role="group">
        {editable && (
          <Button variant="outlined" component={Link} to={`/origination/request-new?edit=${request.id}`}>
            Editar
          </Button>
        )}
        {actions.map((action) => (
          <Button
            key={action}
            variant={action === 'cancel' ? 'outlined' : 'contained'}
            color={COLORS[action]}
            disabled={busy}
            onClick={() => void start(action)}
          >
            {REQUEST_ACTIONS[action].label}
          </Button>
        ))}
      </Stack>
      {(asking === 'reject' || asking === 'cancel') && (
        <ActionDialog
          title={actionTitle(asking, request.folio)}
          confirmLabel={REQUEST_ACTIONS[asking].label}
          field={{ label: 'Motivo', type: 'text', initial: '', schema: requestActionBodySchemas[asking].shape.reason }}
          busy={busy}
          onClose={() => setAsking(null)}
          onConfirm={(reason) => void transit(asking, reason)}
        />
      )}
      {asking === 'disburse' && (!renewing || !fechaFlujo.isPending) && (
        <ActionDialog
          title={actionTitle('disburse', request.folio)}
          confirmLabel="Dispersar"
          field={{
            label: 'Fecha de dispersión',
            type: 'date',
            initial: renewing ? (fechaFlujo.data?.payoffDate ?? request.simulation.renewal!.payoffDate) : today,
            schema: requestActionBodySchemas.disburse.shape.disbursementDate,
          }}
          busy={busy}
          onClose={() => setAsking(null)}
          onConfirm={(date) => void disburseOn(date)}
        >
          <DetailList
            aria-label="Resumen de la dispersión"
            items={[
              { label: 'Monto del crédito', value: formatMoney(request.amount) },
              {
                label: 'Comisión por apertura',
                value: `${formatMoney(request.simulation.openingFee)} + IVA ${formatMoney(request.simulation.openingFeeIva ?? '0.00')}`,
              },
              { label: 'Monto a dispersar', value: formatMoney(request.simulation.netDisbursement) },
              ...(request.simulation.renewal
                ? [
                    ...request.simulation.renewal.credits.map((credit) => ({
                      label: `Finiquito ${credit.folio} al ${formatDate(request.simulation.renewal!.payoffDate)}`,
                      value: formatMoney(credit.payoff),
                    })),
                    { label: 'Monto neto a transferir', value: formatMoney(request.simulation.renewal.netAmount) },
                  ]
                : []),
              { label: 'CLABE', value: request.clabe },
              { label: 'Banco', value: request.bank },
            ]}
          />
        </ActionDialog>
      )}
    </>
  );
}
