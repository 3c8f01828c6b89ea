/**
 * Seed section 9: a background worker left registered by an earlier version is removed at start-up. Started once (by
 * main.tsx) and awaited by whoever registers a worker afterwards (the demo's fake API): a removal that finished after
 * the fake API had registered its worker took that one too, and a demo page reloaded on a slow machine sent its
 * requests to the real server (404).
 */
let removal: Promise<void> | undefined;

export function removeLeftoverWorkers(): Promise<void> {
  removal ??=
    'serviceWorker' in navigator
      ? navigator.serviceWorker
          .getRegistrations()
          .then((registrations) => Promise.all(registrations.map((registration) => registration.unregister())))
          .then(
            () => undefined,
            () => undefined,
          )
      : Promise.resolve();
  return removal;
}
