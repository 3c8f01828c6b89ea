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
});
