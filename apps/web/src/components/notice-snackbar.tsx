import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';

export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

/** The outcome of an action taken from a list (deactivated, export failed…), for five seconds. */
export function NoticeSnackbar({ notice, onClose }: { notice: Notice | null; onClose: () => void }) {
  return (
    <Snackbar open={notice !== null} autoHideDuration={5000} onClose={onClose}>
      {notice ? (
        <Alert severity={notice.kind} onClose={onClose} variant="filled">
          {notice.text}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
