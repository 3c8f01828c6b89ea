import { buildPath, buildUrl, type RouteDefinition, type RouteInput, type RouteOutput, type RouteParams } from '@portal/contract';
import { apiFetch } from './api';
import { uploadWithProgress } from './upload';

/**
 * The one typed client of the contract's route table: features name a route (`userRoutes.get`) and give its params,
 * query and body; the URL is built from the route's path and the answer has the route's success type. Auth headers
 * and a 401's sign-out stay in apiFetch.
 */

/** A route's input, optional as a whole when the route takes nothing required. */
type CallArgs<R extends RouteDefinition> = object extends RouteInput<R> ? [input?: RouteInput<R>] : [input: RouteInput<R>];

/**
 * A list's state as the URL holds it (`page=2&sort=-createdAt&status=…`): sent as it is, the API's list query
 * checks it. Lists keep their page, sort and filters in the URL, so they call their route with it.
 */
export type UrlQuery = URLSearchParams | string;

export function routeUrl<R extends RouteDefinition>(route: R, params?: RouteParams<R>, query?: object | UrlQuery): string {
  if (typeof query === 'string' || query instanceof URLSearchParams) {
    const search = query.toString();
    return `${buildPath(route, params)}${search ? `?${search}` : ''}`;
  }
  return buildUrl(route, { params, query });
}

const isFileAnswer = (route: RouteDefinition) => 'kind' in route.response && route.response.kind === 'file';

function requestInit(route: RouteDefinition, body: unknown): RequestInit {
  const init: RequestInit = { method: route.method, headers: isFileAnswer(route) ? { accept: '*/*' } : {} };
  if (body === undefined) return init;
  return { ...init, body: body instanceof FormData ? body : JSON.stringify(body) };
}

/** Calls `route` and answers its success: the parsed JSON, a Blob for a file answer, nothing for 204. */
export async function call<R extends RouteDefinition>(route: R, ...[input]: CallArgs<R>): Promise<RouteOutput<R>> {
  const { params, query, body } = (input ?? {}) as { params?: RouteParams<R>; query?: object; body?: unknown };
  return answer(route, await apiFetch(routeUrl(route, params, query), requestInit(route, body)));
}

/** Calls a list route with the list's state from the URL (see UrlQuery). */
export async function callList<R extends RouteDefinition>(route: R, query: UrlQuery, params?: RouteParams<R>): Promise<RouteOutput<R>> {
  return answer(route, await apiFetch(routeUrl(route, params, query), requestInit(route, undefined)));
}

/** Sends a multipart route's form with the upload's progress (0 to 1), which fetch cannot report. */
export function upload<R extends RouteDefinition & { body: { kind: 'multipart' } }>(
  route: R,
  input: RouteInput<R>,
  onProgress?: (fraction: number) => void,
): Promise<RouteOutput<R>> {
  const { params, body } = input as { params?: RouteParams<R>; body: FormData };
  return uploadWithProgress<RouteOutput<R>>(routeUrl(route, params), body, { method: route.method === 'PUT' ? 'PUT' : 'POST', onProgress });
}

async function answer<R extends RouteDefinition>(route: R, response: Response): Promise<RouteOutput<R>> {
  if (response.status === 204 || ('kind' in route.response && route.response.kind === 'no-content')) return undefined as RouteOutput<R>;
  if (isFileAnswer(route)) return (await response.blob()) as RouteOutput<R>;
  return (await response.json()) as RouteOutput<R>;
}
