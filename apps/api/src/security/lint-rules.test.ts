import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/** The lint rules that keep data access structural fire on the code they exist to stop. */
describe('API lint rules', () => {
  it('refuses deps.db inside a module, and accepts request.db', async () => {
    const eslint = new ESLint({ cwd: root });
    const file = `${root}apps/api/src/modules/example/example.routes.ts`;
    const [bad] = await eslint.lintText('export const rows = (deps: { db: unknown }) => deps.db;\n', { filePath: file });
    expect(bad!.messages.map((message) => message.ruleId)).toContain('no-restricted-syntax');
    const [good] = await eslint.lintText('export const rows = (request: { db: unknown }) => request.db;\n', { filePath: file });
    expect(good!.messages.filter((message) => message.ruleId === 'no-restricted-syntax')).toEqual([]);
  });

  it('keeps the layers apart: modules never import seed/ or app.ts, db/ never imports modules/, seed/, idp/ or http/', async () => {
    const eslint = new ESLint({ cwd: root });
    const zoneErrors = async (code: string, path: string) => {
      const [result] = await eslint.lintText(code, { filePath: `${root}apps/api/src/${path}` });
      return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
    };
    expect(
      await zoneErrors("export { productRows } from '../../seed/seed-agreements';\n", 'modules/example/example.routes.ts'),
    ).toHaveLength(1);
    expect(await zoneErrors("export type { App } from '../../app';\n", 'modules/example/example.service.ts')).toHaveLength(1);
    expect(await zoneErrors("export { usersRoutes } from '../modules/users/users.routes';\n", 'db/example.ts')).toHaveLength(1);
    expect(await zoneErrors("export { sendProblem } from '../http/errors';\n", 'db/example.ts')).toHaveLength(1);
    expect(await zoneErrors("export { seedDemo } from '../seed/seed';\n", 'db/example.ts')).toHaveLength(1);
    // The allowed directions stay quiet: a module on http/ and db/, the seed on a module, db/ on itself.
    expect(
      await zoneErrors(
        "export { register } from '../../http/register';\nexport { users } from '../../db/schema/users';\n",
        'modules/example/example.routes.ts',
      ),
    ).toEqual([]);
    expect(await zoneErrors("export { productRows } from '../modules/shared/products';\n", 'seed/example.ts')).toEqual([]);
    expect(await zoneErrors("export { users } from './schema/users';\n", 'db/example.ts')).toEqual([]);
  });

  it('keeps the modules in their zones: an area imports its own folder, shared/, audit/ and portfolio/ only', async () => {
    const eslint = new ESLint({ cwd: root });
    const zoneErrors = async (code: string, path: string) => {
      const [result] = await eslint.lintText(code, { filePath: `${root}apps/api/src/modules/${path}` });
      return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
    };
    // An area reaching into another area's folder, by either spelling of the path, and a new area's folder too.
    const [across] = await zoneErrors("export { loadCredit } from '../credits/credits.queries';\n", 'letters/example.ts');
    expect(across).toMatch(/Import zone: an area imports only its own folder, shared\/, audit\/ and portfolio\//);
    expect(await zoneErrors("export { loadCredit } from '../../modules/credits/credits.queries';\n", 'letters/example.ts')).toHaveLength(1);
    expect(
      await zoneErrors("export { summarize } from '../payment-files/payment-files.queries';\n", 'example/example.service.ts'),
    ).toHaveLength(1);
    // The door and the floors below the areas import no area, nor (shared/, audit/) the door.
    expect(await zoneErrors("export { applyPaymentFile } from '../payment-files/apply';\n", 'portfolio/example.ts')).toHaveLength(1);
    expect(await zoneErrors("export { changePortfolio } from '../portfolio/change-portfolio';\n", 'shared/example.ts')).toHaveLength(1);
    expect(await zoneErrors("export { changePortfolio } from '../portfolio/change-portfolio';\n", 'audit/example.ts')).toHaveLength(1);
    // The allowed directions stay quiet, and tests may reach across (they build whole apps).
    const allowed = [
      "export { changePortfolio } from '../portfolio/change-portfolio';",
      "export { shortDate } from '../shared/es-mx';",
      "export { recordAudit } from '../audit/audit';",
      "export { letterQuote } from './letters.service';",
      "export { register } from '../../http/register';",
    ].join('\n');
    expect(await zoneErrors(`${allowed}\n`, 'letters/example.ts')).toEqual([]);
    expect(
      await zoneErrors(
        "export { recordAudit } from '../audit/audit';\nexport { shortDate } from '../shared/es-mx';\n",
        'portfolio/example.ts',
      ),
    ).toEqual([]);
    expect(await zoneErrors("export { loadCredit } from '../credits/credits.queries';\n", 'letters/example.test.ts')).toEqual([]);
  });
});
