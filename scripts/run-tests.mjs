// @ts-check
/**
 * `npm test` after its set-up step: the checks and the tests in two stages, two commands at a time, so that both cores
 * are at work (issue 45: the same commands one after the other took about 15 minutes, most of the checks on one core).
 *
 * 1. The checks: each workspace's type check, lint, layout, import cycles and the web build, the costliest first.
 * 2. Once all of them pass: the unit, screen and API tests (vitest, two forks) beside the browser tests (Playwright
 *    against the web built in stage 1, served as `npm start` serves it). Both are written to wait on events, not on
 *    time, so each is slower beside the other, never wrong.
 *
 * Every line a command prints is forwarded at once, led by the command's name (`[unit] …`); a summary with each
 * command's time ends the run. The exit code is 1 when any command failed; stage 2 does not start after a failed check.
 * It runs on whatever Node.js npm gives it and imports nothing outside Node.js.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {{ name: string, script: string[], env?: NodeJS.ProcessEnv, command?: string[] }} Step `npm run <script>`,
 *   or `command` as given
 * @typedef {{ concurrency: number, steps: Step[] }} Stage its steps in order, `concurrency` of them at a time
 */

const typecheck = (/** @type {string} */ workspace) => ({
  name: `types:${workspace}`,
  script: ['typecheck', '-w', `@portal/${workspace}`],
});

/** @type {Stage[]} Processor seconds of each check, measured: docs/measurements.md, the test suite. */
export const STAGES = [
  {
    concurrency: 2,
    steps: [
      { name: 'format', script: ['format:check'] },
      { name: 'lint', script: ['lint'] },
      typecheck('api'),
      { name: 'build', script: ['build', '-w', '@portal/web'] },
      { name: 'cycles', script: ['check:cycles'] },
      typecheck('web'),
      typecheck('e2e'),
      typecheck('contract'),
      typecheck('lending'),
      { name: 'types:scripts', script: ['typecheck:scripts'] },
    ],
  },
  {
    concurrency: 2,
    steps: [
      { name: 'unit', script: ['test:unit'] },
      // The browser tests' server skips its own build: stage 1 built the web (e2e/playwright.config.ts).
      { name: 'e2e', script: ['test:e2e'], env: { E2E_WEB_BUILT: '1' } },
    ],
  },
];

/** `[name] line` for each whole line of a stream; the last partial line when the stream ends. */
function forward(/** @type {NodeJS.ReadableStream} */ stream, /** @type {string} */ name, /** @type {NodeJS.WriteStream} */ out) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (/** @type {string} */ chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
  stream.on('end', () => {
    if (pending) out.write(`[${name}] ${pending}\n`);
  });
}

/** Runs `npm run <script>`; resolves with its exit code and seconds taken. */
async function runStep(/** @type {Step} */ step) {
  const started = Date.now();
  const [program, ...args] = step.command ?? ['npm', 'run', ...step.script];
  const child = spawn(/** @type {string} */ (program), args, {
    env: { ...process.env, ...step.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  forward(child.stdout, step.name, process.stdout);
  forward(child.stderr, step.name, process.stderr);
  const [code, signal] = await once(child, 'close');
  return { name: step.name, code: typeof code === 'number' ? code : signal ? 1 : 0, seconds: (Date.now() - started) / 1000 };
}

/** Runs a stage's steps, `concurrency` at a time in the listed order; after a failure it starts no further step. */
async function runStage(/** @type {Stage} */ stage) {
  /** @type {{ name: string, code: number, seconds: number }[]} */
  const results = [];
  let next = 0;
  const runner = async () => {
    while (next < stage.steps.length && results.every((result) => result.code === 0)) {
      const step = /** @type {Step} */ (stage.steps[next++]);
      results.push(await runStep(step));
    }
  };
  await Promise.all(Array.from({ length: stage.concurrency }, runner));
  return results;
}

const duration = (/** @type {number} */ seconds) =>
  seconds < 60 ? `${seconds.toFixed(1)} s` : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;

export async function runStages(/** @type {Stage[]} */ stages = STAGES) {
  const started = Date.now();
  /** @type {{ name: string, code: number, seconds: number }[]} */
  const results = [];
  let failed = false;
  for (const stage of stages) {
    const stageStarted = Date.now();
    results.push(...(await runStage(stage)));
    const stageSeconds = (Date.now() - stageStarted) / 1000;
    console.log(`\n${stage.steps.map((step) => step.name).join(', ')}: ${duration(stageSeconds)}`);
    failed = results.some((result) => result.code !== 0);
    if (failed) break;
  }
  console.log('\nResumen de npm test:');
  for (const result of results)
    console.log(`  ${result.code === 0 ? 'bien ' : 'FALLÓ'} ${result.name.padEnd(16)} ${duration(result.seconds)}`);
  console.log(`  total ${duration((Date.now() - started) / 1000)}`);
  return failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await runStages();
}
