import type { RouteDefinition } from '@portal/contract';
import { apiFetch } from './api';
import { routeUrl } from './api-client';

/**
 * Downloads a file the API builds (e.g. an .xlsx export of the current list filter). A plain link cannot carry the
 * bearer token, so the file is fetched and handed to the browser as a blob.
 */
export async function downloadFromApi(route: RouteDefinition & { method: 'GET'; params?: never }, queryString: string, fallbackName: string): Promise<void> {
  const response = await apiFetch(routeUrl(route, undefined, queryString), { headers: { accept: '*/*' } });
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const anchor = Object.assign(document.createElement('a'), { href: url, download: name });
  anchor.click();
  URL.revokeObjectURL(url);
}

/** The list's query without paging: an export takes every row of the filter. */
export function exportQuery(queryString: string): string {
  const query = new URLSearchParams(queryString);
  query.delete('page');
  query.delete('pageSize');
  return query.toString();
}
