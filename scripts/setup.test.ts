import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  accessSync,
  constants,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { atLeast, canInstallWith, chromiumPlan, NODE_PACKAGE, staleDependencies } from './setup.mjs';

/**
 * The first step of `npm start` and `npm test` (scripts/setup.mjs), run as the real script by real node and npm
 * processes on small projects made here. What cannot run inside a test is verified by hand and recorded in
 * docs/measurements.md: apt-get installing Chromium for real, and a fresh clone of this repository going through
 * `npm start` and `npm test` on the machine's own Node.js.
 */

const REPO = fileURLToPath(new URL('..', import.meta.url));
const PROJECT_NODE = readFileSync(path.join(REPO, '.node-version'), 'utf8').trim();
const LINUX_X64 = { platform: 'linux', arch: 'x64' };
const made: string[] = [];

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The PATH a user's shell has: without npm's node_modules/.bin entries nor the team's cached Node.js. */
const USER_PATH = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter((dir) => dir && !dir.includes(`${path.sep}node_modules${path.sep}`) && !dir.includes('portal-node'))
  .join(path.delimiter);

function onUserPath(command: string): string | null {
  for (const dir of USER_PATH.split(path.delimiter)) {
    if (executable(path.join(dir, command))) return realpathSync(path.join(dir, command));
  }
  return null;
}

/** The npm CLI and the machine's own node (the one a newcomer's `npm` runs on), as a user's shell finds them. */
const NPM_CLI = (() => {
  const cli = process.env.npm_execpath ?? onUserPath('npm');
  if (!cli) throw new Error('npm not found');
  return path.basename(cli) === 'npx-cli.js' ? path.join(path.dirname(cli), 'npm-cli.js') : cli;
})();
const MACHINE_NODE = onUserPath('node') ?? process.execPath;
const MACHINE_VERSION = spawnSync(MACHINE_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();

/** The environment npm gives a script when the user types `npm start` on this machine. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_|^INIT_CWD$|^CHROMIUM_PATH$/i.test(key)));
  return {
    ...env,
    PATH: USER_PATH,
    npm_execpath: NPM_CLI,
    npm_config_user_agent: `npm/11 node/v${MACHINE_VERSION} linux x64 workspaces/false`,
    ...extra,
  };
}

/** A project folder with this repository's setup script and the given files. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-setup-'));
  made.push(dir);
  mkdirSync(path.join(dir, 'scripts'));
  copyFileSync(path.join(REPO, 'scripts', 'setup.mjs'), path.join(dir, 'scripts', 'setup.mjs'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A project whose node_modules is already what its lockfile lists. */
function installedProject(extra: Record<string, string> = {}): string {
  const packages = { '': { name: 'fixture' }, 'node_modules/a': { version: '1.0.0' } };
  return project({
    '.node-version': PROJECT_NODE,
    'package.json': json({ name: 'fixture', private: true }),
    'package-lock.json': json({ lockfileVersion: 3, packages }),
    'node_modules/.package-lock.json': json({ lockfileVersion: 3, packages: { 'node_modules/a': { version: '1.0.0' } } }),
    ...extra,
  });
}

function setup(dir: string, command: string, env: NodeJS.ProcessEnv, node = MACHINE_NODE): SpawnSyncReturns<string> {
  return spawnSync(node, [path.join(dir, 'scripts', 'setup.mjs'), command], { cwd: dir, env, encoding: 'utf8' });
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('Node.js: the project runs on .node-version whatever the machine has', () => {
  it("installs the dependencies with npm run by the project's Node.js, so npm checks their engines against it, and says so in one line", () => {
    // A dependency that, like pg-boss 12 or cookie 2, declares Node.js 22; the project's root does too.
    const dir = project({
      '.node-version': PROJECT_NODE,
      'package.json': json({
        name: 'fixture',
        private: true,
        engines: { node: '>=22.12.0' },
        dependencies: { needs22: 'file:./needs22' },
        // npm names the node it runs on in the user agent it hands to the project's own install script.
        scripts: { postinstall: `node -e "require('fs').writeFileSync('installed-by', process.env.npm_config_user_agent)"` },
      }),
      'needs22/package.json': json({ name: 'needs22', version: '1.0.0', engines: { node: '>=22' } }),
    });
    const lock = spawnSync(process.execPath, [NPM_CLI, 'install', '--package-lock-only', '--ignore-scripts'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(lock.status, lock.stderr).toBe(0);
    // The release the project names, as CI and the team's shells keep it (~/.cache/portal-node): this test's own node.
    expect(process.versions.node).toBe(PROJECT_NODE);
    const cache = path.join(dir, 'cache');
    const cached = path.join(cache, 'portal-node', PROJECT_NODE, 'node_modules', NODE_PACKAGE, 'bin');
    mkdirSync(cached, { recursive: true });
    symlinkSync(process.execPath, path.join(cached, 'node'));

    const first = setup(dir, 'start', userEnv({ XDG_CACHE_HOME: cache }));

    expect(first.status, first.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'installed-by'), 'utf8')).toContain(`node/v${PROJECT_NODE}`);
    expect(`${first.stdout}${first.stderr}`).not.toMatch(/EBADENGINE|npm warn/);
    const notices = lines(first.stdout).filter((line) => line.includes('Node.js'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`Instalando las dependencias (npm ci: no están instaladas)`);
    if (MACHINE_VERSION !== PROJECT_NODE) expect(notices[0]).toContain(`con Node.js ${PROJECT_NODE} del registro de npm`);
    expect(notices[0]).toContain(`esta máquina tiene ${MACHINE_VERSION}`);

    // Installed: the next command installs nothing and says nothing more (no node_modules/.bin/node here).
    const second = setup(dir, 'start', userEnv({ XDG_CACHE_HOME: cache }));
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toBe('');

    // What the same install prints when npm runs on the machine's Node.js 20, as `npm install` typed by hand did.
    if (Number(MACHINE_VERSION.split('.')[0]) < 22) {
      const byHand = spawnSync(MACHINE_NODE, [NPM_CLI, 'ci', '--ignore-scripts'], { cwd: dir, env: userEnv(), encoding: 'utf8' });
      expect(byHand.stderr).toMatch(/EBADENGINE[\s\S]*needs22@1\.0\.0/);
    }
  });

  it("every npm script and npx run on the project's Node.js, whatever node the user's npm runs on", () => {
    // Read-only on this repository: npm exec runs a command the way npm start and npm test run theirs.
    const run = spawnSync(MACHINE_NODE, [NPM_CLI, 'exec', '-c', 'node -p process.versions.node'], {
      cwd: REPO,
      env: userEnv(),
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(PROJECT_NODE);
    expect(realpathSync(path.join(REPO, 'node_modules', '.bin', 'node'))).toBe(
      realpathSync(path.join(REPO, 'node_modules', NODE_PACKAGE, 'bin', 'node')),
    );
  });

  it('says in one line which Node.js runs the command when the machine has another', () => {
    const dir = installedProject();
    mkdirSync(path.join(dir, 'node_modules', '.bin'));
    symlinkSync(process.execPath, path.join(dir, 'node_modules', '.bin', 'node'));

    const other = setup(dir, 'start', userEnv({ npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false' }));
    expect(other.status, other.stderr).toBe(0);
    expect(lines(other.stdout)).toEqual([
      `Node.js ${PROJECT_NODE} del proyecto (node_modules/.bin/node) corre este comando; esta máquina tiene 20.20.2.`,
    ]);

    const same = setup(dir, 'start', userEnv({ npm_config_user_agent: `npm/11.19.1 node/v${PROJECT_NODE} linux x64 workspaces/false` }));
    expect(same.status, same.stderr).toBe(0);
    expect(same.stdout).toBe('');

    // npm start run by npm test's browser step: an npm on the bundled node, which inherits the user's agent string.
    const nested = setup(
      dir,
      'start',
      userEnv({
        npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
        npm_node_execpath: path.join(dir, 'node_modules', '.bin', 'node'),
      }),
    );
    expect(nested.status, nested.stderr).toBe(0);
    expect(nested.stdout).toBe('');
  });

  it("knows node_modules is not the lockfile's: missing, another version, a package too many, the project's Node.js absent", () => {
    const packages = {
      '': { name: 'fixture' },
      'node_modules/a': { version: '1.0.0' },
      'node_modules/@esbuild/darwin-arm64': { version: '0.25.12', optional: true },
      [`node_modules/${NODE_PACKAGE}`]: { version: PROJECT_NODE, optional: true },
    };
    const withInstalled = (installed: Record<string, { version: string }> | null) =>
      project({
        'package-lock.json': json({ lockfileVersion: 3, packages }),
        ...(installed ? { 'node_modules/.package-lock.json': json({ lockfileVersion: 3, packages: installed }) } : {}),
      });
    const all = { 'node_modules/a': { version: '1.0.0' }, [`node_modules/${NODE_PACKAGE}`]: { version: PROJECT_NODE } };

    expect(staleDependencies(withInstalled(null), LINUX_X64)).toBe('no están instaladas');
    expect(staleDependencies(withInstalled(all), LINUX_X64)).toBeNull();
    expect(staleDependencies(withInstalled({ ...all, 'node_modules/a': { version: '1.0.1' } }), LINUX_X64)).toBe(
      'node_modules/a es 1.0.1 y package-lock.json dice 1.0.0',
    );
    expect(staleDependencies(withInstalled({ [`node_modules/${NODE_PACKAGE}`]: { version: PROJECT_NODE } }), LINUX_X64)).toBe(
      'falta node_modules/a',
    );
    expect(staleDependencies(withInstalled({ ...all, 'node_modules/b': { version: '2.0.0' } }), LINUX_X64)).toBe(
      'node_modules/b no está en package-lock.json',
    );
    const withoutNode = withInstalled({ 'node_modules/a': { version: '1.0.0' } });
    expect(staleDependencies(withoutNode, LINUX_X64)).toBe(`falta node_modules/${NODE_PACKAGE}`);
    expect(staleDependencies(withoutNode, { platform: 'darwin', arch: 'arm64' })).toBeNull();
  });
  it("reinstalls with the cached copy of the project's Node.js, never with node_modules' copy, which npm ci removes first", () => {
    const root = '/work/portal';
    const bundled = { execPath: `${root}/node_modules/${NODE_PACKAGE}/bin/node`, version: PROJECT_NODE };
    expect(canInstallWith(bundled, PROJECT_NODE, root)).toBe(false);
    expect(canInstallWith({ execPath: '/root/.cache/portal-node/bin/node', version: PROJECT_NODE }, PROJECT_NODE, root)).toBe(true);
    expect(canInstallWith({ execPath: '/work/portal-old/node_modules/x/node', version: PROJECT_NODE }, PROJECT_NODE, root)).toBe(true);
    expect(canInstallWith({ execPath: '/usr/bin/node', version: '20.20.2' }, PROJECT_NODE, root)).toBe(false);
  });
});

describe("Chromium: npm test brings Debian's or stops before any test with the command to type", () => {
  it('stops at once, before installing anything, when Chromium is missing and apt-get is not there', () => {
    // A fresh clone (no node_modules) on a machine without apt-get: the command stops before npm ci.
    const dir = project({ '.node-version': PROJECT_NODE, 'package.json': json({ name: 'fixture' }) });
    const missing = path.join(dir, 'no-chromium');
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);

    const run = setup(dir, 'test', userEnv({ CHROMIUM_PATH: missing, PATH: bin }));

    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toEqual([
      `Falta Chromium para las pruebas de navegador (${missing}). Instala Chromium y di dónde está:`,
      '  CHROMIUM_PATH=/ruta/a/chromium npm test',
    ]);
  });

  it.runIf(process.getuid?.() === 0)('as root with apt-get, installs it once with a one-line notice, then goes on', () => {
    const dir = installedProject();
    const missing = path.join(dir, 'chromium');
    const bin = path.join(dir, 'bin');
    const calls = path.join(dir, 'apt-calls');
    mkdirSync(bin);
    // apt-get stands in for Debian's: it records its calls, and `install` puts an executable where the browser goes.
    // The real apt-get was run by hand (docs/measurements.md); here it would change the machine every test run.
    writeFileSync(
      path.join(bin, 'apt-get'),
      `#!/bin/sh\necho "$DEBIAN_FRONTEND $*" >> '${calls}'\nif [ "$1" = install ]; then printf '#!/bin/sh\\n' > '${missing}'; chmod +x '${missing}'; fi\n`,
      { mode: 0o755 },
    );
    const env = userEnv({ CHROMIUM_PATH: missing, PATH: [bin, USER_PATH].join(path.delimiter) });

    const first = setup(dir, 'chromium', env);
    expect(first.status, first.stderr).toBe(0);
    expect(lines(first.stdout)).toEqual([
      `Falta Chromium para las pruebas de navegador (${missing}): instalando el de Debian (apt-get install -y chromium), una sola vez…`,
    ]);
    expect(lines(readFileSync(calls, 'utf8'))).toEqual(['noninteractive update -qq', 'noninteractive install -y -qq chromium']);

    const second = setup(dir, 'chromium', env);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toBe('');
    expect(lines(readFileSync(calls, 'utf8'))).toHaveLength(2);
  });

  it('tells someone who is not root the exact apt-get command, and anyone without apt-get how to name a browser', () => {
    const facts = { browser: '/usr/bin/chromium', present: false };
    expect(chromiumPlan({ ...facts, present: true, root: false, aptGet: false })).toEqual({ action: 'ok' });
    expect(chromiumPlan({ ...facts, root: false, aptGet: true })).toEqual({
      action: 'stop',
      message:
        'Falta Chromium para las pruebas de navegador (/usr/bin/chromium). Instálalo y vuelve a correr npm test:\n' +
        '  sudo apt-get update && sudo apt-get install -y chromium',
    });
    expect(chromiumPlan({ ...facts, root: true, aptGet: false })).toMatchObject({ action: 'stop' });
    expect(chromiumPlan({ ...facts, root: true, aptGet: true })).toMatchObject({ action: 'install' });
  });
});

const NPM_VERSION = spawnSync(process.execPath, [NPM_CLI, '--version'], { encoding: 'utf8' }).stdout.trim();

describe('install scripts', () => {
  // npm 11.16 brought allowScripts and `npm install-scripts`; an older npm neither warns nor can list them.
  it.runIf(atLeast(NPM_VERSION, '11.16.0'))(
    "every dependency's install script is reviewed in package.json's allowScripts (npm prints no advisory)",
    () => {
      const ls = spawnSync(process.execPath, [NPM_CLI, 'install-scripts', 'ls', '--json'], { cwd: REPO, encoding: 'utf8' });
      expect(ls.status, ls.stderr).toBe(0);
      expect(JSON.parse(ls.stdout)).toEqual({ allowScripts: [] });
    },
  );
});
