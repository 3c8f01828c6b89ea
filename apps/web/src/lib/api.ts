import type { FieldError, Problem } from '@portal/contract';
import { expireSession } from './auth/auth-service';
import { getSession } from './auth/session';

/** An API refusal, carrying the Problem JSON's Spanish title, detail and field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
  ) {
    super(problem?.detail ?? problem?.title ?? `El portal no pudo atender la petición (error ${status}). Inténtalo de nuevo.`);
    this.name = 'ApiError';
  }

  get fieldErrors(): FieldError[] {
    return this.problem?.errors ?? [];
  }
}

const OFFLINE: Problem = {
  type: 'about:blank',
  title: 'Sin conexión',
  status: 0,
  detail: 'No se pudo conectar con el portal. Revisa tu conexión.',
};

/** The request could not reach the API at all. */
export const offlineError = () => new ApiError(0, OFFLINE);

/** The `authorization` header of the signed-in session, if any. */
export function authorizationHeader(): string | null {
  const session = getSession();
  return session ? `Bearer ${session.token.accessToken}` : null;
}

/** A refused answer as the ApiError every caller sees; a 401 means the session is no longer valid and signs the user out. */
export function refusal(status: number, problem: Problem | null): ApiError {
  if (status === 401) expireSession('Tu sesión ya no es válida. Inicia sesión de nuevo.');
  return new ApiError(status, problem);
}

/** fetch with the session's token; a refusal becomes an ApiError. Features call routes through api-client.ts. */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const authorization = authorizationHeader();
  if (authorization) headers.set('authorization', authorization);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  if (init.body && typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch {
    throw offlineError();
  }
  if (response.ok) return response;
  const problem = (await response.json().catch(() => null)) as Problem | null;
  throw refusal(response.status, problem);
}
