import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded mode: PGlite in ./data and the embedded provider on port 3000', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toMatchObject({ kind: 'pglite' });
    expect(config.database.kind === 'pglite' && config.database.dataDir.endsWith('/data')).toBe(true);
    expect(config.oidc).toEqual({
      kind: 'embedded',
      issuer: 'http://localhost:3000/oidc',
      clientId: 'portal-web',
      audience: 'http://localhost:3000/api',
      accessTokenTtl: 900,
    });
    expect(config.seedDemo).toBe(true);
    expect(config.trustProxy).toBe(false);
    expect(config.dailyMinimumWage).toBe('315.04');
  });

  it('reads the daily minimum wage of the year from DAILY_MINIMUM_WAGE', () => {
    expect(loadConfig({ DAILY_MINIMUM_WAGE: '350.5' }).dailyMinimumWage).toBe('350.5');
    expect(loadConfig({ DAILY_MINIMUM_WAGE: ' 400 ' }).dailyMinimumWage).toBe('400');
  });

  it('believes proxy headers only when TRUST_PROXY says whose', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1, ::1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
  });

  it('switches to PostgreSQL and an external provider by environment, without demo data', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://portal@db.internal:5432/portal',
      OIDC_ISSUER: 'https://login.example.com/realms/portal/',
      OIDC_CLIENT_ID: 'portal',
      OIDC_AUDIENCE: 'portal-api',
      PORT: '8080',
    });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://portal@db.internal:5432/portal', poolSize: 20 });
    expect(loadConfig({ DATABASE_URL: 'postgres://portal@db.internal/portal', DATABASE_POOL_SIZE: '8' }).database).toMatchObject({
      poolSize: 8,
    });
    expect(config.oidc).toMatchObject({
      kind: 'external',
      issuer: 'https://login.example.com/realms/portal',
      audience: 'portal-api',
      scope: 'openid email profile',
    });
    // Entra ID issues a token for the API only for one of its scopes: the browser asks for what OIDC_SCOPE says.
    const entra = { OIDC_ISSUER: 'https://login.microsoftonline.com/t/v2.0', OIDC_CLIENT_ID: 'c', OIDC_AUDIENCE: 'c' };
    expect(loadConfig({ ...entra, OIDC_SCOPE: 'openid  email profile api://c/access_as_user' }).oidc).toMatchObject({
      scope: 'openid email profile api://c/access_as_user',
    });
    expect(() => loadConfig({ ...entra, OIDC_SCOPE: 'email' })).toThrow('OIDC_SCOPE debe incluir openid');
    expect(config.seedDemo).toBe(false);
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it.each([
    [{ PORT: 'abc' }, 'Configuración inválida: PORT debe ser un número de puerto entre 1 y 65535 (recibido: "abc")'],
    [{ PORT: '70000' }, 'Configuración inválida: PORT debe ser un número de puerto entre 1 y 65535 (recibido: "70000")'],
    [
      { DATABASE_URL: 'mysql://x/y' },
      'Configuración inválida: DATABASE_URL debe empezar con postgres: o postgresql: (recibido: "mysql://x/y")',
    ],
    [
      { DATABASE_POOL_SIZE: '1' },
      'Configuración inválida: DATABASE_POOL_SIZE debe ser un número de conexiones entre 2 y 200 (recibido: "1")',
    ],
    [
      { DATABASE_POOL_SIZE: '201' },
      'Configuración inválida: DATABASE_POOL_SIZE debe ser un número de conexiones entre 2 y 200 (recibido: "201")',
    ],
    [
      { DATABASE_POOL_SIZE: '8.5' },
      'Configuración inválida: DATABASE_POOL_SIZE debe ser un número de conexiones entre 2 y 200 (recibido: "8.5")',
    ],
    [
      { DATABASE_URL: 'no es url' },
      'Configuración inválida: DATABASE_URL debe ser una URL válida (postgres:, postgresql:) (recibido: "no es url")',
    ],
    [
      { OIDC_ISSUER: 'https://idp.example.com', OIDC_CLIENT_ID: 'portal' },
      'Configuración inválida: OIDC_AUDIENCE falta: con un proveedor externo se requieren OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_AUDIENCE',
    ],
    [
      { OIDC_CLIENT_ID: 'portal', OIDC_AUDIENCE: 'api' },
      'Configuración inválida: OIDC_ISSUER falta: con un proveedor externo se requieren OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_AUDIENCE',
    ],
    [
      { OIDC_ISSUER: 'ftp://idp', OIDC_CLIENT_ID: 'portal', OIDC_AUDIENCE: 'api' },
      'Configuración inválida: OIDC_ISSUER debe empezar con https: o http: (recibido: "ftp://idp")',
    ],
    [{ SEED_DEMO: 'quizá' }, 'Configuración inválida: SEED_DEMO debe ser true o false (recibido: "quizá")'],
    [
      { ACCESS_TOKEN_TTL: '30' },
      'Configuración inválida: ACCESS_TOKEN_TTL debe ser un número de segundos entre 90 y 86400 (recibido: "30")',
    ],
    [
      { TRUST_PROXY: 'sí' },
      'Configuración inválida: TRUST_PROXY debe ser false, true, un número de saltos (1 a 10) o una lista de IP/CIDR separada por comas (recibido: "sí")',
    ],
    [
      { TRUST_PROXY: '10.0.0.0/33' },
      'Configuración inválida: TRUST_PROXY debe ser false, true, un número de saltos (1 a 10) o una lista de IP/CIDR separada por comas (recibido: "10.0.0.0/33")',
    ],
    [
      { DAILY_MINIMUM_WAGE: '315.045' },
      'Configuración inválida: DAILY_MINIMUM_WAGE debe ser el salario mínimo diario en pesos, mayor que 0 y con a lo más 2 decimales (p. ej. 315.04) (recibido: "315.045")',
    ],
    [
      { DAILY_MINIMUM_WAGE: '0' },
      'Configuración inválida: DAILY_MINIMUM_WAGE debe ser el salario mínimo diario en pesos, mayor que 0 y con a lo más 2 decimales (p. ej. 315.04) (recibido: "0")',
    ],
    [
      { DAILY_MINIMUM_WAGE: '-10' },
      'Configuración inválida: DAILY_MINIMUM_WAGE debe ser el salario mínimo diario en pesos, mayor que 0 y con a lo más 2 decimales (p. ej. 315.04) (recibido: "-10")',
    ],
    [{ MAIL_FROM: 'avisos@empresa.mx' }, 'Configuración inválida: SMTP_URL falta: MAIL_FROM sólo sirve con un servidor de correo'],
    [{ SMTP_URL: 'smtp://relay:25' }, 'Configuración inválida: MAIL_FROM falta: con SMTP_URL se requiere la dirección remitente'],
    [
      { SMTP_URL: 'http://usuario:secreta@relay:25', MAIL_FROM: 'avisos@empresa.mx' },
      'Configuración inválida: SMTP_URL debe empezar con smtp:// o smtps:// (recibido: http://…)',
    ],
    [
      { SMTP_URL: 'smtp://relay:25', MAIL_FROM: 'avisos' },
      'Configuración inválida: MAIL_FROM debe ser un correo electrónico (recibido: "avisos")',
    ],
    [
      { DAILY_MINIMUM_WAGE: '315,04' },
      'Configuración inválida: DAILY_MINIMUM_WAGE debe ser el salario mínimo diario en pesos, mayor que 0 y con a lo más 2 decimales (p. ej. 315.04) (recibido: "315,04")',
    ],
  ])('stops with one line naming the bad value: %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('sends mail through SMTP_URL from MAIL_FROM, and never repeats the URL (it may carry a password)', () => {
    expect(loadConfig({}).mail).toBeNull();
    expect(loadConfig({ SMTP_URL: 'smtps://avisos:s3creta@smtp.empresa.mx:465', MAIL_FROM: 'avisos@empresa.mx' }).mail).toEqual({
      smtpUrl: 'smtps://avisos:s3creta@smtp.empresa.mx:465',
      fromAddress: 'avisos@empresa.mx',
    });
    expect(() => loadConfig({ SMTP_URL: 'ftp://avisos:s3creta@smtp', MAIL_FROM: 'avisos@empresa.mx' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('s3creta') }),
    );
  });
});
