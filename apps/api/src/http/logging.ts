import pino, { type DestinationStream, type Logger } from 'pino';

/** Query parameters that carry a credential: a reset link's token, an authorization code, a provider's token hints. */
const SECRET_PARAMETERS = /^(token|code|code_verifier|access_token|id_token|id_token_hint|refresh_token|client_secret|password)$/i;

/** The URL as logged: secret query values replaced, so a request line never carries a usable credential. */
export function loggableUrl(url: string): string {
  const question = url.indexOf('?');
  if (question < 0) return url;
  const query = new URLSearchParams(url.slice(question + 1));
  let changed = false;
  for (const name of new Set(query.keys())) {
    if (SECRET_PARAMETERS.test(name)) {
      query.set(name, '[oculto]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, question)}?${query.toString()}` : url;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
}

/**
 * The process's logger: JSON lines, each request's lines carrying its request id (`reqId`) and, once the token is
 * checked, the user's id (`userId`, http/auth.ts). Headers are not logged; credentials that could still slip into a
 * line (a password field, an authorization header, a token in the URL) are censored.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          'headers.cookie',
          '*.password',
          '*.access_token',
          '*.id_token',
          '*.refresh_token',
          '*.code_verifier',
        ],
        censor: '[oculto]',
      },
      serializers: {
        req: (request: LoggedRequest) => ({
          method: request.method,
          url: loggableUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
    },
    destination,
  );
}
