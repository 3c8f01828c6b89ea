import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { speedUpStyles } from './test-styles';

// A screen waits for what it expects (findBy…, waitFor) for as long as its test may run, not a second of its own: a
// busy machine makes a test slower, never wrong. Just under the test's timeout, so a wait that never ends still fails
// with its own message (what it looked for) rather than the bare timeout.
configure({ asyncUtilTimeout: 55_000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

speedUpStyles();
