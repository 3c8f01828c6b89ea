import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useLocation, useNavigate, useParams } from 'react-router';
import { RouteLoading } from '../../components/route-loading';
import { useCompanies } from '../../lib/catalogs';
import { formatDateTime } from '../../lib/format';
import { AgreementFormView } from './agreement-form';
import { fromDetail } from './agreement-form-model';
import { useAgreement, useUpdateAgreement } from './agreements.queries';
import { todayIso } from './agreement-new.screen';
import { NotFoundState, isNotFound } from '../../components/not-found-state';

export default function AgreementEditScreen() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const agreement = useAgreement(id);
  const companies = useCompanies();
  const update = useUpdateAgreement(id);
  const [notice, setNotice] = useState<string | null>((location.state as { notice?: string } | null)?.notice ?? null);

  if (agreement.isError) {
    if (isNotFound(agreement.error))
      return <NotFoundState what="El convenio" backTo="/catalog/contract-list" backLabel="Ir a la lista de convenios" />;
    return <Alert severity="error">{agreement.error.message}</Alert>;
  }
  if (!agreement.data || !companies.data) return <RouteLoading />;
  const current = agreement.data;
  const lastChange = current.history[0];

  return (
    <>
      <Typography variant="h1" component="h1" sx={{ mb: 1 }}>
        {current.code} · {current.name}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {current.company}
        {lastChange ? ` · último cambio ${formatDateTime(lastChange.occurredAt)} por ${lastChange.actorEmail ?? 'sistema'}` : ''}
      </Typography>
      {notice && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      {current.warnings.map((warning) => (
        <Alert key={warning.field} severity="warning" sx={{ mb: 2 }}>
          {warning.message}
        </Alert>
      ))}
      <AgreementFormView
        key={current.version}
        defaultValues={fromDetail(current)}
        companies={companies.data}
        today={todayIso()}
        submitLabel="Guardar cambios"
        onSubmit={async (input) => {
          setNotice(null);
          await update.mutateAsync({ ...input, version: current.version });
          setNotice('Cambios guardados');
        }}
        onCancel={() => void navigate('/catalog/contract-list')}
      />
    </>
  );
}
