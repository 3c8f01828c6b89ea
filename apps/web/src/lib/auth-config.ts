import { authConfigSchema, type AuthConfig } from '@portal/contract';

let pending: Promise<AuthConfig> | null = null;

/** Where the identity provider is: asked once from the API, which owns the configuration. */
export function loadAuthConfig(): Promise<AuthConfig> {
  pending ??= fetch('/api/auth/config', { headers: { accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`El portal respondió ${response.status} al pedir su configuración.`);
      return authConfigSchema.parse(await response.json());
    })
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
}
