import { lazy, Suspense, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Notice } from '../../components/notice-snackbar';
import { hasPermission } from '../../lib/auth/session';
import { useSession } from '../../lib/auth/use-session';
import { formatMoney } from '../../lib/format';
import { useRenewalMinimum } from './agreements.queries';

// The form (react-hook-form, zod's resolver) loads on Editar: the list's cold load stays within decision 0027.
const RenewalMinimumDialog = lazy(() => import('./renewal-minimum-dialog'));

const TITLE = 'Monto neto mínimo de una renovación';

/**
 * The company's minimum net amount of a renewal (issue 48): a renewal that leaves the client less than this is
 * refused. Shown to whoever sees the Convenios list; changed only with its own permission.
 */
export function RenewalMinimumSection({ onNotice }: { onNotice: (notice: Notice) => void }) {
  const session = useSession();
  const minimum = useRenewalMinimum();
  const [editing, setEditing] = useState(false);
  const canEdit = hasPermission(session, '/actions/agreements/renewal-minimum');

  return (
    <Box component="section" aria-label={TITLE} sx={{ mt: 3 }}>
      <Typography variant="h2" component="h2" gutterBottom>
        {TITLE}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography>
          {minimum.isError ? minimum.error.message : minimum.data ? formatMoney(minimum.data.renewalMinimumNet) : 'Cargando…'}
        </Typography>
        {canEdit && minimum.data && (
          <Button size="small" onClick={() => setEditing(true)}>
            Editar
          </Button>
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary">
        Una renovación se rechaza si el cliente recibiría menos que este monto después de liquidar sus créditos.
      </Typography>
      {editing && minimum.data && (
        <Suspense fallback={null}>
          <RenewalMinimumDialog
            title={TITLE}
            current={minimum.data.renewalMinimumNet}
            onClose={(saved) => {
              setEditing(false);
              if (saved) onNotice({ kind: 'success', text: 'Monto neto mínimo guardado.' });
            }}
          />
        </Suspense>
      )}
    </Box>
  );
}
