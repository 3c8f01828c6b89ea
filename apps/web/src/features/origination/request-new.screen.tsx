import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DOCUMENT_KINDS, type OriginationCatalog, type PreRequest } from '@portal/contract';
import { RouteLoading } from '../../components/route-loading';
import { formatMoney } from '../../lib/format';
import {
  useCreateRequest,
  useOriginationCatalog,
  usePreRequest,
  useRequest,
  useSentPreRequests,
  useUpdateRequest,
} from './origination.queries';
import { EMPTY_REQUEST, RequestForm, fromRequest } from './request-form';
import { NotFoundState, isNotFound } from '../../components/not-found-state';

const detailPath = (id: string) => `/origination/request-list?id=${id}`;

const preRequestLabel = (entry: PreRequest) =>
  [
    entry.folio,
    [entry.firstNames, entry.lastName1, entry.lastName2].filter(Boolean).join(' '),
    `${formatMoney(entry.amount)} a ${entry.term} pagos`,
  ].join(' · ');

/** "Convertir una pre-solicitud enviada": the choice is kept in the URL (`?preRequest=`), so a link can bring it. */
function PreRequestPicker({ value, chosen, onChange }: { value: string; chosen: PreRequest | undefined; onChange: (id: string) => void }) {
  const sent = useSentPreRequests();
  const options = sent.data?.items ?? [];
  // A pre-request reached by a link may be missing from the list (not the user's own, or no longer sent): still show it.
  const all = chosen && !options.some((entry) => entry.id === chosen.id) ? [chosen, ...options] : options;
  return (
    <Paper sx={{ p: 3, mb: 3 }} component="section" aria-label="Pre-solicitud a convertir">
      <TextField
        select
        fullWidth
        label="Convertir una pre-solicitud enviada"
        value={all.some((entry) => entry.id === value) ? value : ''}
        onChange={(event) => onChange(event.target.value)}
        helperText={
          sent.isError
            ? `No se pudieron cargar tus pre-solicitudes: ${sent.error.message}`
            : options.length === 0 && sent.data
              ? 'No tienes pre-solicitudes enviadas por convertir.'
              : 'Llena el cliente y el crédito con los datos de la pre-solicitud.'
        }
        error={sent.isError}
      >
        <MenuItem value="">Ninguna: captura nueva</MenuItem>
        {all.map((entry) => (
          <MenuItem key={entry.id} value={entry.id}>
            {preRequestLabel(entry)}
          </MenuItem>
        ))}
      </TextField>
    </Paper>
  );
}

function NewRequest({ catalog }: { catalog: OriginationCatalog }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const preRequestId = params.get('preRequest') ?? '';
  // "Renovar" from a credit's view: the request starts naming that credit; the CURP brings its payoff.
  const renews = params.get('renews');
  const preRequest = usePreRequest(preRequestId);
  const create = useCreateRequest();
  const convertible = preRequest.data?.status === 'enviada' ? preRequest.data : undefined;

  return (
    <>
      <PreRequestPicker
        value={preRequestId}
        chosen={preRequest.data}
        onChange={(id) => setParams(id ? { preRequest: id } : {}, { replace: true })}
      />
      {preRequest.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {isNotFound(preRequest.error)
            ? 'No encontrado: la pre-solicitud del enlace no existe. Elige otra o captura una nueva.'
            : preRequest.error.message}
        </Alert>
      )}
      {preRequest.data && !convertible && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          La pre-solicitud {preRequest.data.folio} está {preRequest.data.status}: solo se convierte una pre-solicitud enviada.
        </Alert>
      )}
      <RequestForm
        catalog={catalog}
        defaultValues={renews ? { ...EMPTY_REQUEST, renews: [renews] } : EMPTY_REQUEST}
        prefill={convertible}
        withDocuments
        submitLabel="Guardar solicitud"
        onSubmit={async (input, documents, onProgress) => {
          const form = new FormData();
          // `data` goes first so the API can read and check it before the files arrive.
          form.append('data', JSON.stringify({ ...input, preRequestId: convertible?.id ?? null }));
          for (const kind of DOCUMENT_KINDS) {
            const file = documents[kind];
            if (file) form.append(kind, file, file.name);
          }
          const created = await create.mutateAsync({ form, onProgress });
          await navigate(detailPath(created.id), { state: { notice: `Solicitud ${created.folio} guardada.` } });
        }}
      />
    </>
  );
}

function EditRequest({ id, catalog }: { id: string; catalog: OriginationCatalog }) {
  const navigate = useNavigate();
  const request = useRequest(id);
  const update = useUpdateRequest(id);

  if (request.isError) {
    if (isNotFound(request.error))
      return <NotFoundState what="La solicitud" backTo="/origination/request-list" backLabel="Ir a Capturas" />;
    return <Alert severity="error">{request.error.message}</Alert>;
  }
  if (!request.data) return <RouteLoading />;
  const current = request.data;
  if (current.status !== 'capturada') {
    return (
      <Alert
        severity="warning"
        action={
          <Button color="inherit" component={Link} to={detailPath(id)}>
            Ver detalle
          </Button>
        }
      >
        La solicitud {current.folio} está {current.status}: solo se edita mientras está capturada.
      </Alert>
    );
  }
  return (
    <>
      <Alert severity="info" sx={{ mb: 2 }}>
        Solicitud {current.folio}. Los documentos se suben o reemplazan desde su detalle en Capturas.
      </Alert>
      <RequestForm
        key={current.version}
        catalog={catalog}
        defaultValues={fromRequest(current)}
        withDocuments={false}
        submitLabel="Guardar cambios"
        onSubmit={async (input) => {
          await update.mutateAsync({ ...input, version: current.version });
          await navigate(detailPath(id), { state: { notice: `Cambios de ${current.folio} guardados.` } });
        }}
      />
    </>
  );
}

/** Solicitudes: capture a full request (or convert a sent pre-request), or edit one still capturada (`?edit=`). */
export default function RequestNewScreen() {
  const [params] = useSearchParams();
  const editId = params.get('edit') ?? '';
  const catalog = useOriginationCatalog();
  return (
    <>
      <Typography variant="h1" component="h1" sx={{ mb: 3 }}>
        {editId ? 'Editar solicitud' : 'Solicitudes'}
      </Typography>
      {catalog.isError ? (
        <Alert severity="error">No se pudieron cargar los convenios. Recarga la página.</Alert>
      ) : !catalog.data ? (
        <RouteLoading />
      ) : editId ? (
        <EditRequest id={editId} catalog={catalog.data} />
      ) : catalog.data.agreements.length === 0 ? (
        <Alert severity="warning">No hay convenios vigentes con productos activos: pide que se dé de alta uno en Convenios.</Alert>
      ) : (
        <NewRequest catalog={catalog.data} />
      )}
    </>
  );
}
