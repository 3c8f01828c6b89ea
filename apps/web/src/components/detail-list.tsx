import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

interface DetailItem {
  label: string;
  value: ReactNode;
}

/** Read-only label / value pairs of a record (a request's data, a credit's summary), as a description list. */
export function DetailList({ items, 'aria-label': label }: { items: DetailItem[]; 'aria-label'?: string }) {
  return (
    <Box
      component="dl"
      aria-label={label}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
        gap: 2,
        m: 0,
      }}
    >
      {items.map((item) => (
        <Box key={item.label}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {item.label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {item.value === '' || item.value == null ? '—' : item.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
