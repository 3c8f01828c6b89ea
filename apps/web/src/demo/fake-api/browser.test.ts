import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The fake API registers its service worker only after the start-up removal of leftover workers has finished: a
 * removal that ended later took the fake API's worker too (a demo page reloaded on a slow machine then sent its
 * requests to the real server).
 */
const events: string[] = [];
const start = vi.fn(async () => void events.push('fake API worker registered'));
vi.mock('msw/browser', () => ({ setupWorker: () => ({ start, stop: vi.fn() }) }));

describe('the fake API', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
    events.length = 0;
  });

  it('waits for the leftover workers to be removed before it registers its own', async () => {
    let listed: (registrations: { unregister: () => Promise<boolean> }[]) => void = () => {};
    const leftover = {
      unregister: async () => {
        events.push('leftover worker removed');
        return true;
      },
    };
    vi.stubGlobal('navigator', { serviceWorker: { getRegistrations: () => new Promise((resolve) => (listed = resolve)) } });
    const { removeLeftoverWorkers } = await import('../../lib/service-workers');
    const { startFakeApi } = await import('./browser');

    void removeLeftoverWorkers(); // main.tsx, at start-up
    const started = startFakeApi(); // a demo page, before the removal has answered
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(start).not.toHaveBeenCalled();

    listed([leftover]);
    await started;
    expect(events).toEqual(['leftover worker removed', 'fake API worker registered']);
  });
});
