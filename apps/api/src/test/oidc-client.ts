import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { API_SCOPE } from '../idp/idp';

/**
 * A browser's walk through the embedded provider's sign-in (authorization code + PKCE), over `inject` in API tests or
 * over real HTTP against running processes (the topology test, the load test). No vitest here: the load test uses it.
 */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json<T>(): T;
}

export interface Sent {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  payload?: string;
  remoteAddress?: string;
}

export type Transport = (request: Sent) => Promise<Answer>;

export function injectTransport(app: FastifyInstance): Transport {
  return async (request) => {
    const response = await app.inject({
      method: request.method,
      url: request.url,
      headers: request.headers,
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
      ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}),
    });
    return { statusCode: response.statusCode, headers: response.headers, body: response.body, json: <T>() => response.json<T>() };
  };
}

/** Over HTTP to `origin` (a running process); redirects are returned, not followed, as `inject` does. */
export function httpTransport(origin: string): Transport {
  return async (request) => {
    const response = await fetch(`${origin}${request.url}`, {
      method: request.method,
      headers: request.headers,
      ...(request.payload !== undefined ? { body: request.payload } : {}),
      redirect: 'manual',
    });
    const headers: Answer['headers'] = Object.fromEntries(response.headers);
    headers['set-cookie'] = response.headers.getSetCookie();
    const body = await response.text();
    return { statusCode: response.status, headers, body, json: <T>() => JSON.parse(body) as T };
  };
}

export interface Site {
  /** PUBLIC_URL of the portal: the client's redirect URI lives there. */
  publicUrl: string;
  /** The API's audience (PUBLIC_URL/api for the embedded provider). */
  audience: string;
}

export interface Tokens {
  access_token: string;
  id_token: string;
  token_type: string;
}

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`sign-in walk: ${what}`);
}

/** A minimal cookie jar over a transport, enough to walk the provider's redirects like a browser. */
export function oidcBrowser(transport: Transport, site: Site) {
  const jar = new Map<string, string>();
  const remember = (setCookie: Answer['headers'][string]) => {
    for (const line of [setCookie ?? []].flat().map(String)) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const pathOf = (location: string) => {
    const url = new URL(location, site.publicUrl);
    return `${url.pathname}${url.search}`;
  };

  const client = {
    pathOf,
    async get(url: string) {
      const response = await transport({ method: 'GET', url, headers: { cookie: cookie() } });
      remember(response.headers['set-cookie']);
      return response;
    },
    async post(url: string, form: Record<string, string>, remoteAddress = '127.0.0.1') {
      const response = await transport({
        method: 'POST',
        url,
        remoteAddress,
        headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      });
      remember(response.headers['set-cookie']);
      return response;
    },

    /** Authorization code + PKCE up to the login page; answers the interaction path and what to finish the flow with. */
    async startAuthorization() {
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const query = new URLSearchParams({
        client_id: 'portal-web',
        response_type: 'code',
        scope: `openid email profile ${API_SCOPE}`,
        redirect_uri: `${site.publicUrl}/auth-callback.html`,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'estado-1',
        resource: site.audience,
      });
      const authorize = await client.get(`/oidc/auth?${query}`);
      check(authorize.statusCode === 303, `/oidc/auth answered ${authorize.statusCode}`);
      const interaction = pathOf(authorize.headers.location as string);
      check(/^\/oidc\/interaction\/[\w-]+$/.test(interaction), `unexpected interaction ${interaction}`);
      return { interaction, verifier };
    },

    /** Signs in on the provider's page and follows its redirects back to the client's callback; answers the code. */
    async loginForCode(email: string, password: string) {
      const { interaction, verifier } = await client.startAuthorization();
      let response = await client.post(`${interaction}/login`, { email, password });
      for (let hops = 0; response.statusCode === 303 && hops < 6; hops += 1) {
        const location = response.headers.location as string;
        if (location.startsWith(`${site.publicUrl}/auth-callback.html`)) break;
        response = await client.get(pathOf(location));
      }
      check(typeof response.headers.location === 'string', `sign-in ended with ${response.statusCode}, no redirect`);
      const callback = new URL(response.headers.location as string);
      check(callback.searchParams.get('state') === 'estado-1', 'the callback lost the state');
      return { code: callback.searchParams.get('code')!, verifier };
    },

    /** The token request of a public client; without `verifier` it omits the PKCE proof. */
    exchangeCode(code: string, verifier?: string) {
      return transport({
        method: 'POST',
        url: '/oidc/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: 'portal-web',
          code,
          ...(verifier ? { code_verifier: verifier } : {}),
          redirect_uri: `${site.publicUrl}/auth-callback.html`,
        }).toString(),
      });
    },

    async completeSignIn(email: string, password: string): Promise<Tokens> {
      const { code, verifier } = await client.loginForCode(email, password);
      const token = await client.exchangeCode(code, verifier);
      check(token.statusCode === 200, `/oidc/token answered ${token.statusCode}: ${token.body}`);
      return token.json<Tokens>();
    },
  };
  return client;
}
