import { lazy, Suspense, useCallback, useMemo } from 'react';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate } from 'react-router';
import { AGING_BUCKET_LABELS } from '@portal/lending';
import type { HomeSummary, PermissionPath } from '@portal/contract';
import { StatusChip } from '../../components/status-chip';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { useHomeSummary } from './home.queries';

const BucketChart = lazy(() => import('./bucket-chart'));

const CREDITS = '/wallet/credits/credits-list';
const REQUESTS = '/origination/request-list';
const FILES = '/wallet/files-pay-list';
const PAYMENTS = '/wallet/application-pay-list';

const share = (part: number, whole: number) =>
  whole === 0 ? '0 %' : `${((part / whole) * 100).toLocaleString('es-MX', { maximumFractionDigits: 1 })} %`;
const count = (value: number) => value.toLocaleString('es-MX');

/** A figure; with the permission to open the screen behind it, the whole card is a link to that screen filtered. */
function Figure({ label, value, detail, to }: { label: string; value: string; detail?: string; to: string | null }) {
  const body = (
    <CardContent>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p" sx={{ mt: 0.5, fontWeight: 600 }}>
        {value}
      </Typography>
      {detail && (
        <Typography variant="body2" color="text.secondary">
          {detail}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
      <Card variant="outlined" sx={{ height: '100%' }}>
        {to ? (
          <CardActionArea component={RouterLink} to={to} sx={{ height: '100%' }}>
            {body}
          </CardActionArea>
        ) : (
          body
        )}
      </Card>
    </Grid>
  );
}

function Dashboard({ summary }: { summary: HomeSummary }) {
  const session = useSession();
  const navigate = useNavigate();
  const may = (path: PermissionPath) => hasPermission(session, path);
  const link = (path: PermissionPath, query = '') => (may(path) ? `${path}${query}` : null);
  const { portfolio, collections, transit } = summary;
  const statusOf = (status: 'vigente' | 'vencido') => portfolio.byStatus.find((row) => row.status === status)!;
  const bars = useMemo(
    () => portfolio.byBucket.map((row) => ({ label: AGING_BUCKET_LABELS[row.bucket], balance: row.balance, count: row.count })),
    [portfolio.byBucket],
  );
  const openBucket = useCallback(
    (index: number) => {
      const bucket = portfolio.byBucket[index]?.bucket;
      if (bucket && hasPermission(session, CREDITS)) void navigate(`${CREDITS}?bucket=${encodeURIComponent(bucket)}`);
    },
    [navigate, portfolio.byBucket, session],
  );
  const dates = summary.businessDates;

  return (
    <>
      <Typography variant="h2" component="h2" sx={{ mb: 1 }}>
        Cartera
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {dates.length === 1
          ? `Cifras a la fecha flujo: ${formatDate(dates[0]!.businessDate)}.`
          : `Cifras a la fecha flujo de cada empresa: ${dates.map((row) => `${row.company} ${formatDate(row.businessDate)}`).join(' · ')}.`}
        {summary.figuresAt && ` Calculadas el ${formatDateTime(summary.figuresAt)}, al cerrar el día o aplicar un archivo de pagos.`}
      </Typography>
      <Grid container spacing={2} sx={{ mb: 3 }} component="section" aria-label="Cifras de la cartera">
        <Figure
          label="Saldo de la cartera"
          value={formatMoney(portfolio.outstandingBalance)}
          detail={`${count(portfolio.count)} créditos activos`}
          to={link(CREDITS)}
        />
        <Figure
          label="Créditos vigentes"
          value={count(statusOf('vigente').count)}
          detail={`${share(statusOf('vigente').count, portfolio.count)} · ${formatMoney(statusOf('vigente').balance)}`}
          to={link(CREDITS, '?status=vigente')}
        />
        <Figure
          label="Créditos vencidos"
          value={count(statusOf('vencido').count)}
          detail={`${share(statusOf('vencido').count, portfolio.count)} · ${formatMoney(statusOf('vencido').balance)}`}
          to={link(CREDITS, '?status=vencido')}
        />
        <Figure
          label="Saldo exigible vencido"
          value={formatMoney(portfolio.overdueBalance)}
          detail="Cuotas vencidas sin pagar"
          to={link(CREDITS, '?sort=-daysPastDue')}
        />
        <Figure
          label="Cobranza del mes"
          value={formatMoney(collections.received)}
          detail={`de ${formatMoney(collections.expected)} esperados (${share(Number(collections.received), Number(collections.expected))}), ${formatDate(collections.from)} a ${formatDate(collections.through)}`}
          to={link(PAYMENTS, `?status=aplicado&from=${collections.from}&to=${collections.through}`)}
        />
        <Figure
          label="En tránsito"
          value={formatMoney(transit.balance)}
          detail={`${count(transit.count)} descuentos retenidos por el patrón`}
          to={link(FILES)}
        />
      </Grid>

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Card variant="outlined">
            <CardHeader title="Saldo por antigüedad" slotProps={{ title: { component: 'h3', variant: 'h6' } }} />
            <CardContent>
              <Suspense fallback={<Skeleton variant="rectangular" height={260} />}>
                <BucketChart bars={bars} onOpen={openBucket} />
              </Suspense>
              <Table size="small" aria-label="Saldo por antigüedad">
                <TableHead>
                  <TableRow>
                    <TableCell>Tramo</TableCell>
                    <TableCell align="right">Créditos</TableCell>
                    <TableCell align="right">Saldo</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {portfolio.byBucket.map((row) => {
                    const to = link(CREDITS, `?bucket=${encodeURIComponent(row.bucket)}`);
                    return (
                      <TableRow key={row.bucket}>
                        <TableCell>
                          {to ? (
                            <Link component={RouterLink} to={to}>
                              {AGING_BUCKET_LABELS[row.bucket]}
                            </Link>
                          ) : (
                            AGING_BUCKET_LABELS[row.bucket]
                          )}
                        </TableCell>
                        <TableCell align="right">{count(row.count)}</TableCell>
                        <TableCell align="right">{formatMoney(row.balance)}</TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Card variant="outlined">
            <CardHeader title="Solicitudes pendientes" slotProps={{ title: { component: 'h3', variant: 'h6' } }} />
            <CardContent>
              <Table size="small" aria-label="Solicitudes pendientes">
                <TableBody>
                  {summary.pendingRequests.map((row) => {
                    const to = link(REQUESTS, `?status=${encodeURIComponent(row.status)}`);
                    return (
                      <TableRow key={row.status}>
                        <TableCell>
                          {to ? (
                            <Link component={RouterLink} to={to}>
                              {row.status}
                            </Link>
                          ) : (
                            row.status
                          )}
                        </TableCell>
                        <TableCell align="right">{count(row.count)}</TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </CardContent>
          </Card>
          <Card variant="outlined">
            <CardHeader title="Últimos archivos de pagos" slotProps={{ title: { component: 'h3', variant: 'h6' } }} />
            <CardContent>
              {summary.lastFiles.length === 0 ? (
                <Typography color="text.secondary">Todavía no se ha cargado ningún archivo de pagos.</Typography>
              ) : (
                <Table size="small" aria-label="Últimos archivos de pagos">
                  <TableHead>
                    <TableRow>
                      <TableCell>Archivo</TableCell>
                      <TableCell>Descuento</TableCell>
                      <TableCell>Estado</TableCell>
                      <TableCell align="right">Aplicado</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {summary.lastFiles.map((file) => (
                      <TableRow key={file.id}>
                        <TableCell>
                          {may(FILES) ? (
                            <Link component={RouterLink} to={`/wallet/files-pay-detail/${file.id}`}>
                              {file.fileName}
                            </Link>
                          ) : (
                            file.fileName
                          )}
                          <Typography variant="body2" color="text.secondary">
                            {file.agreement}
                          </Typography>
                        </TableCell>
                        <TableCell>{formatDate(file.discountDate)}</TableCell>
                        <TableCell>
                          <StatusChip status={file.status} />
                        </TableCell>
                        <TableCell align="right">{formatMoney(file.appliedAmount)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </>
  );
}

/** Inicio's Cartera part: loaded only for users with a Cartera permission (the chart library comes with it). */
export default function PortfolioDashboard() {
  const summary = useHomeSummary();
  if (summary.isPending) return <LinearProgress aria-label="Cargando las cifras de la cartera" />;
  if (summary.isError) return <Alert severity="error">No se pudieron cargar las cifras de la cartera. Intenta de nuevo más tarde.</Alert>;
  return <Dashboard summary={summary.data} />;
}
