import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The web's import zones (eslint.config.js), exercised on snippets as if they sat in the web's files. */
const root = `${path.resolve(import.meta.dirname, '../../..')}/`;
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: `${root}apps/web/src/${file}` });
  return result!.messages.filter((message) => message.message.includes('Import boundary')).map((message) => message.message);
}

describe('the web import zones', () => {
  it('fails a feature that imports app/, statically or with import()', async () => {
    expect(
      await boundaryErrors(
        'features/users/user-list.screen.tsx',
        "import { createRouter } from '../../app/router';\nexport const router = createRouter;\n",
      ),
    ).toEqual([expect.stringContaining('a feature never imports app/')]);
    expect(
      await boundaryErrors('features/home/home.screen.tsx', "export const load = () => import('../../app/shell/sidebar');\n"),
    ).toHaveLength(1);
  });

  it('fails a feature that imports another feature, and lets it import its own files', async () => {
    expect(
      await boundaryErrors('features/users/user-list.screen.tsx', "export { useAgreementList } from '../agreements/agreements.queries';\n"),
    ).toEqual([expect.stringContaining('features never import each other')]);
    expect(
      await boundaryErrors(
        'features/wallet/credit-view.screen.tsx',
        "export { catalog } from '../../features/origination/origination.test-data';\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'features/users/user-list.screen.tsx',
        "export { useUserList } from './users.queries';\nexport { useUsers } from '../users/users.queries';\n",
      ),
    ).toEqual([]);
  });

  it('fails components/ and lib/ that import app/ or a feature', async () => {
    expect(await boundaryErrors('lib/api.ts', "import { expire } from '../app/auth';\nexport const run = expire;\n")).toEqual([
      expect.stringContaining('never import app/ or a feature'),
    ]);
    expect(await boundaryErrors('lib/auth/session.ts', "export { visibleNavigation } from '../../app/shell/app-layout';\n")).toHaveLength(
      1,
    );
    expect(
      await boundaryErrors('components/list-screen.tsx', "export { useUserList } from '../features/users/users.queries';\n"),
    ).toHaveLength(1);
  });

  it('lets app/ import features, and features import components/ and lib/', async () => {
    expect(await boundaryErrors('app/routes.ts', "export const load = () => import('../features/users/user-list.screen');\n")).toEqual([]);
    const shared =
      "export { ServerDataGrid } from '../../components/server-data-grid';\nexport { useSession } from '../../lib/auth/use-session';\n";
    expect(await boundaryErrors('features/agreements/agreement-list.screen.tsx', shared)).toEqual([]);
  });

  it('keeps the demo boundary inside the zones', async () => {
    const [result] = await eslint.lintText("export { DEMO_AREAS } from '../../demo/registry';\n", {
      filePath: `${root}apps/web/src/features/home/home.screen.tsx`,
    });
    expect(result!.messages.map((message) => message.message)).toEqual([expect.stringContaining('template demo')]);
  });
}, 60_000);
