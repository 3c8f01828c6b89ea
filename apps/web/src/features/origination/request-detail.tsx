import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { Link } from 'react-router';
import {
  DETAIL_ROUTE_PERMISSIONS,
  DOCUMENT_LABELS,
  REQUEST_ACTIONS,
  type AuditEntry,
  type DocumentKind,
  type Request as LoanRequest,
} from '@portal/contract';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { RouteLoading } from '../../components/route-loading';
import { DetailList } from '../../components/detail-list';
import { ScheduleTable } from '../../components/schedule-table';
import { Section } from '../../components/section';
import { SidePanel } from '../../components/side-panel';
import { StatusChip } from '../../components/status-chip';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { useRequest } from './origination.queries';
import { RequestActions, type PanelNotice } from './request-actions';
import { RequestDocuments } from './request-documents';
import { RequestStatusChip } from './request-status';
import { NotFoundState, isNotFound } from '../../components/not-found-state';

const EVENTS: Record<string, string> = {
  'request.create': 'Captura',
  'request.update': 'Edición',
  'request.document.upload': 'Documento subido',
  'request.document.replace': 'Documento reemplazado',
  ...Object.fromEntries(Object.entries(REQUEST_ACTIONS).map(([action, rule]) => [`request.${action}`, rule.label])),
};

/** What an audit event changed, in words: the status move, the reason given, the document uploaded. */
function eventDetail(entry: AuditEntry): string {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof after.status === 'string' && after.status !== before.status)
    parts.push(typeof before.status === 'string' ? `${before.status} → ${after.status}` : after.status);
  if (typeof after.reason === 'string') parts.push(`Motivo: ${after.reason}`);
  if (typeof after.kind === 'string' && after.kind in DOCUMENT_LABELS) parts.push(DOCUMENT_LABELS[after.kind as DocumentKind]);
  return parts.join(' · ');
}

function address(request: LoanRequest): string {
  const interior = request.interiorNumber ? ` int. ${request.interiorNumber}` : '';
  return `${request.street} ${request.exteriorNumber}${interior}, col. ${request.neighborhood}, ${request.municipality}, ${request.state}, C.P. ${request.postalCode}`;
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function RequestData({ request }: { request: LoanRequest }) {
  return (
    <Section title="Datos">
      <Group title="Cliente">
        <DetailList
          items={[
            { label: 'Nombre', value: request.clientName },
            { label: 'CURP', value: request.curp },
            { label: 'RFC', value: request.rfc },
            { label: 'Nacimiento', value: formatDate(request.simulation.birthDate) },
            { label: 'Sexo', value: request.simulation.sex === 'H' ? 'Hombre' : 'Mujer' },
            { label: 'Número de empleado', value: request.employeeNumber },
          ]}
        />
      </Group>
      <Group title="Domicilio y contacto">
        <DetailList
          items={[
            { label: 'Domicilio', value: address(request) },
            { label: 'Teléfono', value: request.phone },
            { label: 'Correo electrónico', value: request.email },
          ]}
        />
      </Group>
      <Group title="Referencias">
        <DetailList
          items={request.references.map((reference, index) => ({
            label: `Referencia ${index + 1}`,
            value: `${reference.name} (${reference.relationship}) · ${reference.phone}`,
          }))}
        />
      </Group>
      <Group title="Crédito solicitado">
        <DetailList
          items={[
            { label: 'Convenio', value: request.agreement },
            { label: 'Producto', value: request.product },
            { label: 'Sueldo neto por periodo', value: formatMoney(request.netSalary) },
            { label: 'Otros descuentos por periodo', value: formatMoney(request.otherDeductions) },
            { label: 'Monto', value: formatMoney(request.amount) },
            { label: 'Plazo', value: `${request.term} pagos de ${formatMoney(request.installment)}` },
            { label: 'CLABE', value: request.clabe },
            { label: 'Banco', value: request.bank },
            { label: 'Pre-solicitud', value: request.preRequestFolio },
          ]}
        />
      </Group>
      <Group title="Seguimiento">
        <DetailList
          items={[
            {
              label: 'Capturó',
              value: request.createdBy ? `${request.createdBy} · ${formatDateTime(request.createdAt)}` : formatDateTime(request.createdAt),
            },
            { label: 'Decidió', value: request.decidedBy ? `${request.decidedBy} · ${formatDateTime(request.decidedAt)}` : '' },
            { label: 'Última modificación', value: formatDateTime(request.updatedAt) },
          ]}
        />
      </Group>
    </Section>
  );
}

function RequestSimulation({ request }: { request: LoanRequest }) {
  const { simulation } = request;
  return (
    <Section title="Simulación">
      <Stack direction="row" spacing={1} sx={{ mb: 2, alignItems: 'center' }}>
        <StatusChip status={simulation.result} />
        {simulation.reasons.length > 0 && (
          <Typography variant="body2">{simulation.reasons.map((reason) => reason.message).join(' ')}</Typography>
        )}
      </Stack>
      <DetailList
        aria-label="Resumen de la simulación"
        items={[
          { label: 'Capacidad de pago por periodo', value: formatMoney(simulation.capacity) },
          { label: 'Pago por periodo', value: formatMoney(simulation.installment) },
          { label: 'CAT sin IVA', value: `${simulation.cat} %` },
          {
            label: 'Comisión por apertura',
            value: `${formatMoney(simulation.openingFee)} + IVA ${formatMoney(simulation.openingFeeIva ?? '0.00')}`,
          },
          ...(simulation.firstPeriodDays !== undefined
            ? [
                {
                  label: 'Primer periodo',
                  value: `${simulation.firstPeriodDays} días${simulation.firstPeriodByDays ? ', interés por días' : ''}`,
                },
              ]
            : []),
          { label: 'Monto a dispersar', value: formatMoney(simulation.netDisbursement) },
          { label: 'Descuentos', value: `${formatDate(simulation.firstDueDate)} a ${formatDate(simulation.lastDueDate)}` },
          { label: 'Edad al terminar', value: `${simulation.ageAtEnd} años` },
          ...(simulation.renewal
            ? [
                ...simulation.renewal.credits.map((credit) => ({
                  label: `Renueva ${credit.folio} (finiquito al ${formatDate(simulation.renewal!.payoffDate)})`,
                  value: formatMoney(credit.payoff),
                })),
                { label: 'Monto neto a recibir', value: formatMoney(simulation.renewal.netAmount) },
              ]
            : []),
        ]}
      />
      <Box sx={{ mt: 2 }}>
        <ScheduleTable rows={simulation.schedule} aria-label="Tabla de amortización de la solicitud" />
      </Box>
    </Section>
  );
}

function RequestHistory({ history }: { history: AuditEntry[] }) {
  return (
    <Section title="Historial">
      <Table size="small" aria-label="Historial de la solicitud">
        <TableHead>
          <TableRow>
            <TableCell>Fecha</TableCell>
            <TableCell>Quién</TableCell>
            <TableCell>Qué</TableCell>
            <TableCell>Detalle</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {history.map((entry) => (
            <TableRow key={entry.id}>
              <TableCell>{formatDateTime(entry.occurredAt)}</TableCell>
              <TableCell>{entry.actorEmail ?? 'sistema'}</TableCell>
              <TableCell>{EVENTS[entry.action] ?? entry.action}</TableCell>
              <TableCell>{eventDetail(entry)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Section>
  );
}

function RequestDetail({ id, today, onClose }: { id: string; today: string; onClose: () => void }) {
  const session = useSession();
  const request = useRequest(id);
  // The credit's screen belongs to Cartera: the link is offered to whoever may open it.
  const creditLink = (credit: { id: string; folio: string }) =>
    hasPermission(session, DETAIL_ROUTE_PERMISSIONS['/wallet/credits/credits-view/:id']) ? (
      <Button color="inherit" size="small" component={Link} to={`/wallet/credits/credits-view/${credit.id}`}>
        Ver crédito
      </Button>
    ) : undefined;
  const [notice, setNotice] = useState<PanelNotice | null>(null);
  const current = request.data;
  const credit = current?.creditId && current.creditFolio ? { id: current.creditId, folio: current.creditFolio } : null;

  return (
    <Box sx={{ p: 3 }}>
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
        <Typography variant="h2" component="h2" sx={{ flexGrow: 1 }}>
          {current ? `Solicitud ${current.folio}` : 'Solicitud'}
        </Typography>
        {current && <RequestStatusChip status={current.status} />}
        <IconButton aria-label="Cerrar detalle" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Stack>
      {request.isError ? (
        isNotFound(request.error) ? (
          <NotFoundState what="La solicitud" backTo="/origination/request-list" backLabel="Volver a Capturas" onBack={onClose} />
        ) : (
          <Alert severity="error">{request.error.message}</Alert>
        )
      ) : !current ? (
        <RouteLoading />
      ) : (
        <>
          {notice && (
            <Alert
              severity={notice.kind}
              sx={{ mb: 2 }}
              onClose={() => setNotice(null)}
              action={notice.credit && creditLink(notice.credit)}
            >
              {notice.text}
            </Alert>
          )}
          {credit && notice?.credit?.id !== credit.id && (
            <Alert severity="success" sx={{ mb: 2 }} action={creditLink(credit)}>
              Dispersada: crédito {credit.folio}.
            </Alert>
          )}
          {current.rejectionReason && (
            <Alert severity="error" sx={{ mb: 2 }}>
              Motivo del rechazo: {current.rejectionReason}
            </Alert>
          )}
          {current.cancellationReason && (
            <Alert severity="warning" sx={{ mb: 2 }}>
              Motivo de la cancelación: {current.cancellationReason}
            </Alert>
          )}
          <Box sx={{ mb: 3 }}>
            <RequestActions request={current} today={today} onNotice={setNotice} />
          </Box>
          <RequestData request={current} />
          <Section title="Documentos">
            <RequestDocuments request={current} />
          </Section>
          <RequestSimulation request={current} />
          <RequestHistory history={current.history} />
        </>
      )}
    </Box>
  );
}

/** The request opened from the Capturas grid, on the right; its id is in the URL (`?id=`) so it can be linked to. */
export function RequestDetailDrawer({ id, today, onClose }: { id: string; today: string; onClose: () => void }) {
  return (
    <SidePanel open={id !== ''} onClose={onClose} label="Detalle de la solicitud">
      {id !== '' && <RequestDetail key={id} id={id} today={today} onClose={onClose} />}
    </SidePanel>
  );
}
