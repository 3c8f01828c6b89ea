import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    environment: 'node',
    globalSetup: ['./src/test/global-setup.ts'],
    // Hang guards, not speed checks: a test waits on its event or condition (src/test/until.ts) for as long as this,
    // so a busy machine makes it slower, never wrong.
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
