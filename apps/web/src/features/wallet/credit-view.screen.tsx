import { lazy, Suspense, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { LIQUIDATION_REASON_LABELS, type Credit } from '@portal/contract';
import { AGING_BUCKET_LABELS } from '@portal/lending';
import { NotFoundState, isNotFound } from '../../components/not-found-state';
import { RouteLoading } from '../../components/route-loading';
import { StatusChip } from '../../components/status-chip';
import { formatDate, formatMoney } from '../../lib/format';
import { useCredit } from './credits.queries';
import {
  DeductionsSection,
  HistorySection,
  LabelsSection,
  LettersSection,
  PaymentsSection,
  ScheduleSection,
  SummarySection,
} from './credit-view-sections';

const PayoffSection = lazy(() => import('./credit-payoff'));

/**
 * The view's sections, in the order a clerk reads a credit; the URL's `tab` names the one open. The counts on the tabs
 * come with the view; each tab reads its own part when it is opened.
 */
const TABS = [
  { key: 'resumen', label: () => 'Resumen', Panel: SummarySection },
  { key: 'calendario', label: () => 'Calendario de pagos', Panel: ScheduleSection },
  { key: 'pagos', label: (credit: Credit) => `Pagos (${credit.paymentCount})`, Panel: PaymentsSection },
  { key: 'descuentos', label: () => 'Descuentos', Panel: DeductionsSection },
  { key: 'etiquetas', label: (credit: Credit) => `Etiquetas (${credit.labels.length})`, Panel: LabelsSection },
  { key: 'cartas', label: (credit: Credit) => `Cartas (${credit.letterCount})`, Panel: LettersSection },
  {
    key: 'liquidacion',
    label: () => 'Liquidación',
    Panel: ({ credit }: { credit: Credit }) => (
      <Suspense fallback={<RouteLoading />}>
        <PayoffSection credit={credit} />
      </Suspense>
    ),
  },
  { key: 'historial', label: () => 'Historial', Panel: HistorySection },
] as const;

type TabKey = (typeof TABS)[number]['key'];

function HeaderFigure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 500 }}>
        {children}
      </Typography>
    </Box>
  );
}

/** What a clerk checks first, above every tab: state, arrears, bucket, balance, the next deduction. */
function CreditHeader({ credit }: { credit: Credit }) {
  const next = credit.nextDeduction;
  return (
    <Paper component="header" sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}>
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 0.5 }}>
        <Typography variant="h1" component="h1">
          Crédito {credit.folio}
        </Typography>
        <StatusChip status={credit.status} size="medium" />
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
        {credit.clientName} · {credit.agreement} · {credit.company}
      </Typography>
      <Box
        component="dl"
        aria-label="Estado del crédito"
        sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: 2, m: 0 }}
      >
        <HeaderFigure label="Días de atraso">
          <Box component="span" sx={{ color: credit.daysPastDue > 0 ? 'error.main' : undefined }}>
            {credit.daysPastDue}
          </Box>
        </HeaderFigure>
        <HeaderFigure label="Tramo">{AGING_BUCKET_LABELS[credit.bucket]}</HeaderFigure>
        <HeaderFigure label="Saldo">{formatMoney(credit.balances.total)}</HeaderFigure>
        <HeaderFigure label="Próximo descuento">
          {next ? `${formatDate(next.discountDate)} · ${formatMoney(next.amount)}` : 'Sin descuentos por venir'}
        </HeaderFigure>
        <HeaderFigure label="Fecha flujo">{formatDate(credit.businessDate)}</HeaderFigure>
        {credit.liquidationReason && (
          <HeaderFigure label="Liquidado por">{LIQUIDATION_REASON_LABELS[credit.liquidationReason]}</HeaderFigure>
        )}
        {credit.renewedBy && (
          <HeaderFigure label="Renovado por">
            <Link component={RouterLink} to={`/wallet/credits/credits-view/${credit.renewedBy.id}`}>
              {credit.renewedBy.folio}
            </Link>
          </HeaderFigure>
        )}
        {credit.renews.length > 0 && (
          <HeaderFigure label="Renueva a">
            {credit.renews.map((renewed, index) => (
              <span key={renewed.id}>
                {index > 0 && ', '}
                <Link component={RouterLink} to={`/wallet/credits/credits-view/${renewed.id}`}>
                  {renewed.folio}
                </Link>
              </span>
            ))}
          </HeaderFigure>
        )}
      </Box>
      {credit.status !== 'liquidado' && !credit.renewedBy && (
        <Button component={RouterLink} to={`/origination/request-new?renews=${credit.id}`} variant="outlined" sx={{ mt: 2 }}>
          Renovar
        </Button>
      )}
    </Paper>
  );
}

/**
 * Detalle del crédito: a header with what a clerk checks first, and the credit's sections as tabs (the URL keeps the
 * one open, so a link or a reload lands on it). Read only.
 */
export default function CreditViewScreen() {
  const { id = '' } = useParams();
  const credit = useCredit(id);
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const active = TABS.find((tab) => tab.key === requested) ?? TABS[0];

  if (credit.isError) {
    if (isNotFound(credit.error))
      return <NotFoundState what="El crédito" backTo="/wallet/credits/credits-list" backLabel="Ir a Créditos" />;
    return <Alert severity="error">{credit.error.message}</Alert>;
  }
  if (!credit.data) return <RouteLoading />;
  const current = credit.data;

  const open = (key: TabKey) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (key === TABS[0].key) next.delete('tab');
        else next.set('tab', key);
        return next;
      },
      { replace: true },
    );

  return (
    <>
      <CreditHeader credit={current} />
      <Paper>
        <Tabs
          value={active.key}
          onChange={(_event, key: TabKey) => open(key)}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          aria-label="Secciones del crédito"
          sx={{ borderBottom: 1, borderColor: 'divider' }}
        >
          {TABS.map((tab) => (
            <Tab
              key={tab.key}
              value={tab.key}
              label={tab.label(current)}
              id={`credit-tab-${tab.key}`}
              aria-controls={`credit-panel-${tab.key}`}
            />
          ))}
        </Tabs>
        <Box role="tabpanel" id={`credit-panel-${active.key}`} aria-labelledby={`credit-tab-${active.key}`} sx={{ p: { xs: 2, sm: 3 } }}>
          <active.Panel credit={current} />
        </Box>
      </Paper>
    </>
  );
}
