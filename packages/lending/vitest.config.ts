import { defineProject } from 'vitest/config';

// Property tests run thousands of cases; on a busy two-core runner they need more than the 5 s default.
export default defineProject({ test: { name: 'lending', environment: 'node', testTimeout: 30_000 } });
