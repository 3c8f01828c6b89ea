import type { AuthConfig } from '@portal/contract';
import { readAuthConfig } from './auth/shapes';

let pending: Promise<AuthConfig> | null = null;

/** Where the identity provider is: asked once from the API, which owns the configuration. */
export function loadAuthConfig(): Promise<AuthConfig> {
  pending ??= fetch('/api/auth/config', { headers: { accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`El portal respondió ${response.status} al pedir su configuración.`);
      const config = readAuthConfig(await response.json());
      if (!config) throw new Error('El portal respondió una configuración que no se entiende.');
      return config;
    })
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
}
