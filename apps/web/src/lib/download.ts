import type { RouteDefinition, RouteParams, Schema } from '@portal/contract';
import { apiFetch } from './api';
import { routeUrl } from './api-client';

/**
 * Downloads a file the API builds (e.g. an .xlsx export of the current list filter). A plain link cannot carry the
 * bearer token, so the file is fetched and handed to the browser as a blob.
 */
export async function downloadFromApi(
  route: RouteDefinition & { method: 'GET'; params?: never },
  queryString: string,
  fallbackName: string,
): Promise<void> {
  await save(routeUrl(route, undefined, queryString), fallbackName);
}

/**
 * Downloads one record's file (e.g. a payment file as it was uploaded), named by the API or `fallbackName`; `query`
 * chooses among its forms (e.g. a batch's bank file as fixed width or CSV).
 */
export async function downloadRecordFile<R extends RouteDefinition & { method: 'GET'; params: Schema }>(
  route: R,
  params: RouteParams<R>,
  fallbackName: string,
  query?: Record<string, string>,
): Promise<void> {
  await save(routeUrl(route, params, query), fallbackName);
}

async function save(url: string, fallbackName: string): Promise<void> {
  const response = await apiFetch(url, { headers: { accept: '*/*' } });
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const href = URL.createObjectURL(await response.blob());
  const anchor = Object.assign(document.createElement('a'), { href, download: name });
  anchor.click();
  URL.revokeObjectURL(href);
}

/** The list's query without paging: an export takes every row of the filter. */
export function exportQuery(queryString: string): string {
  const query = new URLSearchParams(queryString);
  query.delete('page');
  query.delete('pageSize');
  return query.toString();
}
