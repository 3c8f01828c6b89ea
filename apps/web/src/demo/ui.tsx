import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMatches } from 'react-router';

/** Shared pieces of the demo pages: the page frame, a stat card, money and the fake API's fetchers. */

/** A demo screen: its heading (the route's title unless given) and its content. */
export function DemoPage({ title, actions, children }: { title?: string; actions?: ReactNode; children: ReactNode }) {
  const routeTitle = (useMatches().at(-1)?.handle as { title?: string } | undefined)?.title;
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h1" component="h1">
          {title ?? routeTitle}
        </Typography>
        {actions}
      </Stack>
      {children}
    </Stack>
  );
}

export function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <Card variant="outlined" sx={{ flex: '1 1 200px' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
          {value}
        </Typography>
        {hint && (
          <Typography variant="caption" color="text.secondary">
            {hint}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

export const Row = ({ children }: { children: ReactNode }) => <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>{children}</Box>;

const MONEY = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });
export const money = (value: number) => MONEY.format(value);

export const initials = (name: string) =>
  name
    .split(/\s+/)
    .slice(0, 2)
    .map((part) => part[0] ?? '')
    .join('')
    .toUpperCase();

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, init);
  const body = (await response.json()) as T & { message?: string };
  if (!response.ok) throw new Error(body.message ?? `HTTP ${response.status}`);
  return body;
}

export const postJson = <T,>(path: string, body: unknown) =>
  call<T>(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
export const putJson = <T,>(path: string, body: unknown) =>
  call<T>(path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A GET on the fake API, cached under the path. */
export const useDemoQuery = <T,>(path: string) => useQuery({ queryKey: ['demo', path], queryFn: () => call<T>(path) });

/** A POST on the fake API whose answer replaces the cached value of `path`. */
export function useDemoMutation<T, V>(path: string, send: (variables: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: (data) => client.setQueryData(['demo', path], data) });
}

/** A POST on the fake API after which `path` is read again. */
export function useDemoAction<V>(send: (variables: V) => Promise<unknown>, refresh: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => client.invalidateQueries({ queryKey: ['demo', refresh] }) });
}
