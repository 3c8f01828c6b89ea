import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import {
  DOCUMENT_KINDS,
  DOCUMENT_LABELS,
  requestRoutes,
  type DocumentKind,
  type Request as LoanRequest,
  type RequestStatus,
} from '@portal/contract';
import { FilePreviewDialog } from '../../components/file-preview-dialog';
import { routeUrl } from '../../lib/api-client';
import { formatBytes, formatDateTime } from '../../lib/format';
import { DOCUMENT_ACCEPT, documentProblem } from './documents';
import { useUploadDocument } from './origination.queries';

/** Documents are added or replaced while the request is still being captured or validated. */
const REPLACEABLE: readonly RequestStatus[] = ['capturada', 'en validación'];

function UploadButton({
  kind,
  present,
  disabled,
  onPick,
}: {
  kind: DocumentKind;
  present: boolean;
  disabled: boolean;
  onPick: (file: File) => void;
}) {
  return (
    <Button size="small" component="label" disabled={disabled}>
      {present ? 'Reemplazar' : 'Subir'}
      <input
        hidden
        type="file"
        accept={DOCUMENT_ACCEPT}
        aria-label={`${present ? 'Reemplazar' : 'Subir'} ${DOCUMENT_LABELS[kind]}`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onPick(file);
        }}
      />
    </Button>
  );
}

/** The request's three documents: what was uploaded, a viewer, and upload or replace with its progress. */
export function RequestDocuments({ request }: { request: LoanRequest }) {
  const upload = useUploadDocument(request.id);
  const [uploading, setUploading] = useState<{ kind: DocumentKind; progress: number } | null>(null);
  const [problems, setProblems] = useState<Partial<Record<DocumentKind, string>>>({});
  const [viewing, setViewing] = useState<DocumentKind | null>(null);
  const replaceable = REPLACEABLE.includes(request.status);

  const send = async (kind: DocumentKind, file: File) => {
    const problem = documentProblem(kind, file);
    setProblems((current) => ({ ...current, [kind]: problem ?? undefined }));
    if (problem) return;
    setUploading({ kind, progress: 0 });
    try {
      await upload.mutateAsync({ kind, file, onProgress: (progress) => setUploading({ kind, progress }) });
    } catch (error) {
      setProblems((current) => ({ ...current, [kind]: (error as Error).message }));
    } finally {
      setUploading(null);
    }
  };

  return (
    <>
      <Table size="small" aria-label="Documentos de la solicitud">
        <TableHead>
          <TableRow>
            <TableCell>Documento</TableCell>
            <TableCell>Archivo</TableCell>
            <TableCell>Subido</TableCell>
            <TableCell align="right">Acciones</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {DOCUMENT_KINDS.map((kind) => {
            const document = request.documentList.find((entry) => entry.kind === kind);
            const progress = uploading?.kind === kind ? uploading.progress : null;
            return (
              <TableRow key={kind}>
                <TableCell>{DOCUMENT_LABELS[kind]}</TableCell>
                <TableCell>
                  {document ? `${document.fileName} · ${formatBytes(document.size)}` : 'Falta'}
                  {progress !== null && (
                    <LinearProgress
                      variant="determinate"
                      value={Math.round(progress * 100)}
                      aria-label={`Subiendo ${DOCUMENT_LABELS[kind]}`}
                      sx={{ mt: 1 }}
                    />
                  )}
                  {problems[kind] && (
                    <Alert severity="error" sx={{ mt: 1 }}>
                      {problems[kind]}
                    </Alert>
                  )}
                </TableCell>
                <TableCell>
                  {document ? `${formatDateTime(document.uploadedAt)}${document.uploadedBy ? ` · ${document.uploadedBy}` : ''}` : '—'}
                </TableCell>
                <TableCell align="right">
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                    {document && (
                      <Button size="small" onClick={() => setViewing(kind)} aria-label={`Ver ${DOCUMENT_LABELS[kind]}`}>
                        Ver
                      </Button>
                    )}
                    {replaceable && (
                      <UploadButton
                        kind={kind}
                        present={Boolean(document)}
                        disabled={uploading !== null}
                        onPick={(file) => void send(kind, file)}
                      />
                    )}
                  </Stack>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {viewing && (
        <FilePreviewDialog
          path={routeUrl(requestRoutes.getDocument, { id: request.id, kind: viewing })}
          title={DOCUMENT_LABELS[viewing]}
          onClose={() => setViewing(null)}
        />
      )}
    </>
  );
}
