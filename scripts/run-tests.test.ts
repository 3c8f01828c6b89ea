import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runStages } from './run-tests.mjs';

/** A step running a line of JavaScript in its own Node.js process. */
const node = (name: string, code: string) => ({ name, script: [], command: [process.execPath, '-e', code] });

/** Waits for a file another step writes: the two can only both end if they run side by side. */
const meetAt = (dir: string, mine: string, theirs: string) => `
  const fs = require('node:fs');
  fs.writeFileSync(${JSON.stringify(path.join(dir, mine))}, '');
  const wait = () => fs.existsSync(${JSON.stringify(path.join(dir, theirs))}) ? console.log('${mine} met ${theirs}') : setTimeout(wait, 20);
  wait();`;

describe('npm test stages (scripts/run-tests.mjs)', () => {
  let dir: string;
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs a stage's steps side by side, leads each line with its step, and passes when every step does", async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'run-tests-'));
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => lines.push(String(chunk)) > 0);
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    // Each step waits for the other's file: run one after the other, neither would end (the test would time out).
    const code = await runStages([{ concurrency: 2, steps: [node('a', meetAt(dir, 'a', 'b')), node('b', meetAt(dir, 'b', 'a'))] }]);
    expect(code).toBe(0);
    expect(lines).toContain('[a] a met b\n');
    expect(lines).toContain('[b] b met a\n');
  });

  it('starts no step after a failed one, nor a later stage, and fails the run', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'run-tests-'));
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => lines.push(String(chunk)) > 0);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => lines.push(String(chunk)) > 0);
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const code = await runStages([
      // One at a time: the failed step is the first, the one after it never starts.
      {
        concurrency: 1,
        steps: [node('types', ''), node('lint', 'console.error("mal"); process.exit(3)'), node('after-lint', 'console.log("ran")')],
      },
      { concurrency: 2, steps: [node('unit', 'console.log("ran")')] },
    ]);
    expect(code).toBe(1);
    expect(lines).toContain('[lint] mal\n');
    expect(lines.join('')).not.toContain('ran');
    expect(lines.some((line) => /FALLÓ lint/.test(line))).toBe(true);
    expect(lines.some((line) => /bien {2}types/.test(line))).toBe(true);
  });
});
