import { defineConfig } from 'vitest/config';

// Every workspace's unit, screen and API tests run from here as separate projects.
// Two cores on CI: two forks at most.
export default defineConfig({
  test: {
    projects: ['packages/lending', 'packages/contract', 'apps/api', 'apps/web', 'scripts'],
    maxWorkers: 2,
  },
});
