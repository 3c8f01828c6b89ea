import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { apiFetch } from '../lib/api';

/**
 * Shows a file the API keeps (an uploaded document). A plain link cannot carry the bearer token, so the file is
 * fetched, shown from a blob URL (PDF in a frame, images as such) and the URL is released on close.
 */
export function FilePreviewDialog({ path, title, onClose }: { path: string; title: string; onClose: () => void }) {
  const [file, setFile] = useState<{ url: string; type: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let url: string | null = null;
    let cancelled = false;
    apiFetch(path, { headers: { accept: '*/*' } })
      .then((response) => response.blob())
      .then((blob) => {
        if (cancelled) return;
        url = URL.createObjectURL(blob);
        setFile({ url, type: blob.type });
      })
      .catch((failure: Error) => {
        if (!cancelled) setError(failure.message);
      });
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg" aria-labelledby="file-preview-title">
      <DialogTitle id="file-preview-title">{title}</DialogTitle>
      <DialogContent>
        {error ? (
          <Alert severity="error">{error}</Alert>
        ) : !file ? (
          <Box role="progressbar" aria-label="Cargando archivo" sx={{ minHeight: 200 }} />
        ) : file.type.startsWith('image/') ? (
          <Box component="img" src={file.url} alt={title} sx={{ maxWidth: '100%' }} />
        ) : (
          <Box component="iframe" src={file.url} title={title} sx={{ width: '100%', height: '75vh', border: 0 }} />
        )}
      </DialogContent>
      <DialogActions>
        {file && (
          <Button component="a" href={file.url} target="_blank" rel="noopener">
            Abrir en otra pestaña
          </Button>
        )}
        <Button variant="contained" onClick={onClose}>
          Cerrar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
