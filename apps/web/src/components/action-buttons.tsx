import { useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { useConfirm, type ConfirmOptions } from './confirm-dialog';

/** A file a screen offers: its button's label and what fetches and saves it. */
export interface Download {
  label: string;
  run: () => Promise<void>;
}

/**
 * A record's downloads (the bank file, a cédula in its layout, a payment file's original): every button waits while
 * one runs, so a slow file is not asked for twice, and a failure is told with the server's reason.
 */
export function DownloadButtons({ downloads, onError }: { downloads: Download[]; onError: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  return downloads.map(({ label, run }) => (
    <Button
      key={label}
      variant="outlined"
      startIcon={<FileDownloadOutlined />}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        run()
          .catch((error: Error) => onError(error.message))
          .finally(() => setBusy(false));
      }}
    >
      {label}
    </Button>
  ));
}

/** A button for an action that cannot be taken back: it asks first (No has the focus), then runs `onConfirmed`. */
export function ConfirmedButton(props: {
  children: ReactNode;
  confirmation: ConfirmOptions;
  pending: boolean;
  variant?: 'contained' | 'outlined';
  onConfirmed: () => void;
}) {
  const confirm = useConfirm();
  return (
    <Button
      variant={props.variant ?? 'outlined'}
      disabled={props.pending}
      onClick={async () => {
        if (await confirm(props.confirmation)) props.onConfirmed();
      }}
    >
      {props.children}
    </Button>
  );
}
