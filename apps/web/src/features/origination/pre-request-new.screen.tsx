import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { RouteLoading } from '../../components/route-loading';
import { MyPreRequests } from './my-pre-requests';
import { useCreatePreRequest, useOriginationCatalog } from './origination.queries';
import { EMPTY_PRE_REQUEST, PreRequestForm } from './pre-request-form';

export default function PreRequestNewScreen() {
  const navigate = useNavigate();
  const catalog = useOriginationCatalog();
  const create = useCreatePreRequest();
  return (
    <>
      <Typography variant="h1" component="h1" sx={{ mb: 3 }}>
        Pre-Solicitudes
      </Typography>
      {catalog.isError ? (
        <Alert severity="error">No se pudieron cargar los convenios. Recarga la página.</Alert>
      ) : !catalog.data ? (
        <RouteLoading />
      ) : catalog.data.agreements.length === 0 ? (
        <Alert severity="warning">No hay convenios vigentes con productos activos: pide que se dé de alta uno en Convenios.</Alert>
      ) : (
        <PreRequestForm
          catalog={catalog.data}
          defaultValues={EMPTY_PRE_REQUEST}
          submitLabel="Guardar borrador"
          onSubmit={async (values) => {
            const created = await create.mutateAsync(values);
            await navigate(`/origination/pre-request-edit/${created.id}`, {
              state: { notice: `Pre-solicitud ${created.folio} guardada como borrador.` },
            });
          }}
        />
      )}
      <MyPreRequests />
    </>
  );
}
