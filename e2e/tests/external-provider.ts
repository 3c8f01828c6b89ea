import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import Provider, { type Adapter, type AdapterPayload, type Configuration, type JWK } from 'oidc-provider';

/**
 * An identity provider that is not the portal's code: oidc-provider configured here with its own accounts, its own
 * signing keys and its own sign-in page, in the test's process, as a company's Keycloak or Entra ID would be. It shares
 * nothing with apps/api/src/idp. `rotateKeys()` starts signing with a new key while still publishing the old one, as a
 * provider's scheduled rotation does; sessions and grants survive it.
 */
export interface ExternalAccount {
  password: string;
  email: string;
  name: string;
  /** Whether the access token carries the e-mail (a provider set up without that claim for the API: false). */
  emailInAccessToken: boolean;
}

export interface ExternalProvider {
  issuer: string;
  /** The key ids it publishes, newest (signing) first. */
  keyIds(): string[];
  rotateKeys(): Promise<string>;
  close(): Promise<void>;
}

/** Stores of the provider's models, kept outside any one Provider instance so that a rotation keeps sessions. */
const stores = new Map<string, Map<string, { payload: AdapterPayload; expiresAt: number }>>();

class MemoryAdapter implements Adapter {
  private readonly store: Map<string, { payload: AdapterPayload; expiresAt: number }>;
  constructor(name: string) {
    this.store = stores.get(name) ?? new Map();
    stores.set(name, this.store);
  }
  async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
    this.store.set(id, { payload, expiresAt: Date.now() + expiresIn * 1000 });
  }
  async find(id: string) {
    const entry = this.store.get(id);
    return entry && entry.expiresAt > Date.now() ? entry.payload : undefined;
  }
  async findByUserCode(userCode: string) {
    return [...this.store.values()].find((entry) => entry.payload.userCode === userCode)?.payload;
  }
  async findByUid(uid: string) {
    return [...this.store.values()].find((entry) => entry.payload.uid === uid)?.payload;
  }
  async consume(id: string) {
    const entry = this.store.get(id);
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    this.store.delete(id);
  }
  async revokeByGrantId(grantId: string) {
    for (const [id, entry] of this.store) if (entry.payload.grantId === grantId) this.store.delete(id);
  }
}

function signingKey(): JWK {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: `externa-${randomUUID().slice(0, 8)}`, alg: 'RS256', use: 'sig' };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function loginPage(action: string, error?: string): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Proveedor externo</title></head><body>
<h1>Proveedor de identidad de la empresa</h1>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${action}">
<label>Usuario <input name="username" autocomplete="username"></label>
<label>Clave <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Entrar</button>
</form></body></html>`;
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startExternalProvider(options: {
  port: number;
  portalUrl: string;
  clientId: string;
  audience: string;
  accounts: Record<string, ExternalAccount>;
  accessTokenTtl: number;
}): Promise<ExternalProvider> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const cookieKeys = [randomBytes(32).toString('base64url')];
  let keys = [signingKey()];
  stores.clear();

  const configuration = (): Configuration => ({
    adapter: MemoryAdapter,
    clients: [
      {
        client_id: options.clientId,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [`${options.portalUrl}/auth-callback.html`],
        post_logout_redirect_uris: [`${options.portalUrl}/session/signin`],
      },
    ],
    // The newest key signs; the ones before it stay published for the tokens they signed.
    jwks: { keys },
    cookies: { keys: cookieKeys },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    ttl: {
      AccessToken: options.accessTokenTtl,
      IdToken: options.accessTokenTtl,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    // The browser calls the token endpoint from the portal's origin: the client's redirect URIs name it.
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.body = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Cerrar sesión</title></head><body>
<h1>¿Cerrar tu sesión en el proveedor?</h1>${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sí, cerrar sesión</button>
<button type="submit" form="op.logoutForm">No</button></body></html>`;
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'openid email profile',
          audience: options.audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: options.accessTokenTtl,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    findAccount: (_ctx, id) => {
      const account = options.accounts[id];
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, email: account.email, email_verified: true, name: account.name }) };
    },
    extraTokenClaims: (_ctx, token) => {
      const account = 'accountId' in token && typeof token.accountId === 'string' ? options.accounts[token.accountId] : undefined;
      return account?.emailInAccessToken ? { email: account.email } : undefined;
    },
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) {
        const grant = await ctx.oidc.provider.Grant.find(grantId);
        if (grant) return grant;
      }
      if (!ctx.oidc.session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile');
      grant.addResourceScope(options.audience, 'openid email profile');
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });

  let provider = new Provider(issuer, configuration());
  let callback = provider.callback();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', issuer);
    const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname);
    if (!interaction) return callback(request, response);
    const details = await provider.interactionDetails(request, response);
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(`/interaction/${details.uid}/login`));
      return;
    }
    const form = await formOf(request);
    const username = form.get('username') ?? '';
    if (options.accounts[username]?.password !== form.get('password')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(loginPage(`/interaction/${details.uid}/login`, 'Usuario o clave incorrectos.'));
      return;
    }
    await provider.interactionFinished(request, response, { login: { accountId: username } }, { mergeWithLastSubmission: false });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`error del proveedor: ${error.message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));

  return {
    issuer,
    keyIds: () => keys.map((key) => key.kid!),
    async rotateKeys() {
      keys = [signingKey(), ...keys];
      provider = new Provider(issuer, configuration());
      callback = provider.callback();
      return keys[0]!.kid!;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
