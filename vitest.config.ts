import { configDefaults, defineConfig } from 'vitest/config';

/** Files that replace a module with `vi.mock`: they need a module graph of their own (see the API project below). */
const API_MODULE_MOCKS = ['src/idp/idp.test.ts'];

// Every workspace's unit, screen and API tests run from here as separate projects.
// Two cores on CI: two forks at most.
export default defineConfig({
  test: {
    projects: [
      'packages/lending',
      'packages/contract',
      'apps/web',
      'scripts',
      // The API's files share each fork's module graph instead of importing the app (Fastify, Drizzle, the provider)
      // again for each of some 75 files: 40 % less processor time for the same tests (docs/measurements.md, the test
      // suite). Safe because no API test changes module state, globals or the environment for the files after it;
      // each builds its own app and database (src/test/test-app.ts). A file that mocks a module keeps its own graph.
      {
        extends: './apps/api/vitest.config.ts',
        root: './apps/api',
        test: { isolate: false, exclude: [...configDefaults.exclude, ...API_MODULE_MOCKS] },
      },
      { extends: './apps/api/vitest.config.ts', root: './apps/api', test: { name: 'api-mocks', include: API_MODULE_MOCKS } },
    ],
    maxWorkers: 2,
  },
});
