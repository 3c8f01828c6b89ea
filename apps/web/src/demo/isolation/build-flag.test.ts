import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * VITE_DEMO=false leaves the template demo out of the bundle entirely: a real build with the flag, checked for the
 * demo's files and for strings only the demo holds.
 */
const web = path.resolve(import.meta.dirname, '../../..');
const demo = path.join(web, 'src/demo');
const outDir = mkdtempSync(path.join(tmpdir(), 'portal-no-demo-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Strings that exist only in the demo's code: its route table, fake API, accounts and shell hooks. */
const MARKERS = [
  'patchDemoRoutes',
  'DEMO_NAV_GROUP',
  'demo@plantilla.mx',
  '/api/scrum-board/move-card',
  '/api/ecommerce/get-cart-list',
  'Gráficas con ApexCharts',
  'mockServiceWorker',
];

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );

describe('VITE_DEMO=false', () => {
  it('uses markers that really are in the demo code', () => {
    const code = sources(demo)
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.test.ts'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    for (const marker of MARKERS.filter((candidate) => candidate !== 'mockServiceWorker')) expect(code).toContain(marker);
  });

  it('builds without a demo chunk, the fake API worker or any demo string', () => {
    const vite = path.join(path.dirname(createRequire(path.join(web, 'package.json')).resolve('vite/package.json')), 'bin/vite.js');
    execFileSync(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: web,
      env: { ...process.env, VITE_DEMO: 'false' },
      stdio: 'pipe',
    });
    expect(existsSync(path.join(outDir, 'index.html'))).toBe(true);
    expect(existsSync(path.join(outDir, 'mockServiceWorker.js'))).toBe(false);

    const files = sources(outDir).filter((file) => /\.(js|html|css)$/.test(file));
    const demoScreens = sources(demo).map((file) => path.basename(file).replace(/\.tsx?$/, ''));
    expect(files.map((file) => path.basename(file)).filter((name) => demoScreens.some((screen) => name.startsWith(`${screen}-`)))).toEqual(
      [],
    );
    const leaks = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return MARKERS.filter((marker) => text.includes(marker)).map((marker) => `${path.basename(file)}: ${marker}`);
    });
    expect(leaks).toEqual([]);
  });
}, 180_000);
