import { defineProject } from 'vitest/config';

// The set-up step's tests start real npm and node processes: more than the 5 s default on a busy runner.
export default defineProject({ test: { name: 'setup', environment: 'node', testTimeout: 60_000 } });
