import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'lending', environment: 'node' } });
