import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test-setup.ts'],
    // Hang guards, not speed checks: a screen test's waits end on what they wait for (test-setup.ts).
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
