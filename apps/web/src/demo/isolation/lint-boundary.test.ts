import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The demo's isolation rule (eslint.config.js), exercised on snippets as if they sat in product files. */
const root = `${path.resolve(import.meta.dirname, '../../../../..')}/`;
const eslint = new ESLint({ cwd: root });

async function demoErrors(file: string, code: string) {
  const [result] = await eslint.lintText(code, {
    filePath: file.startsWith('/') ? `${root}${file.slice(1)}` : `${root}apps/web/src/${file}`,
  });
  return result!.messages.filter((message) => message.message.includes('template demo')).length;
}

describe('the demo import boundary', () => {
  it('fails a product file that imports the demo, statically or with import()', async () => {
    expect(
      await demoErrors(
        'features/home/home.screen.tsx',
        "import { DEMO_AREAS } from '../../demo/registry';\nexport const areas = DEMO_AREAS;\n",
      ),
    ).toBe(1);
    expect(await demoErrors('lib/anything.ts', "export const load = () => import('../demo/fake-api/handlers');\n")).toBe(1);
    expect(await demoErrors('components/widget.tsx', "export { relativeTime } from '../demo/relative-time';\n")).toBe(1);
  });

  it("fails another workspace that reaches into the web app's demo", async () => {
    expect(
      await demoErrors(
        '/e2e/tests/some.spec.ts',
        "import { DEMO_AREAS } from '../../apps/web/src/demo/registry';\nexport const areas = DEMO_AREAS;\n",
      ),
    ).toBe(1);
    expect(await demoErrors('/apps/api/src/seed/demo-data.ts', "import { seed } from './demo';\nexport const run = seed;\n")).toBe(0);
  });

  it('lets the router and the shell load the registration point, and nothing else of the demo', async () => {
    expect(await demoErrors('app/router.tsx', "export const load = () => import('../demo/registry');\n")).toBe(0);
    expect(await demoErrors('app/shell/app-layout.tsx', "export const load = () => import('../../demo/registry');\n")).toBe(0);
    expect(await demoErrors('app/router.tsx', "export const load = () => import('../demo/fake-api/browser');\n")).toBe(1);
    expect(await demoErrors('app/shell/sidebar.tsx', "export const load = () => import('../../demo/registry');\n")).toBe(1);
  });

  it('leaves imports inside the demo, and names that merely contain "demo", alone', async () => {
    expect(
      await demoErrors(
        'demo/ui.tsx',
        "export { relativeTime } from './relative-time';\nexport const load = () => import('./fake-api/browser');\n",
      ),
    ).toBe(0);
    expect(await demoErrors('features/home/home.screen.tsx', "export const load = () => import('./demo-data');\n")).toBe(0);
  });
}, 60_000);
