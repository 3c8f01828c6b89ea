import { useCallback, useSyncExternalStore } from 'react';

/** The user's shell choices, remembered in this browser: side or top bar, compact side bar. */
export interface LayoutPrefs {
  layout: 'side' | 'top';
  compact: boolean;
}

export const LAYOUT_KEY = 'portfolio-admin:layout';
const DEFAULTS: LayoutPrefs = { layout: 'side', compact: false };
const listeners = new Set<() => void>();
let cached: { raw: string | null; value: LayoutPrefs } | null = null;

function read(): LayoutPrefs {
  const raw = window.localStorage.getItem(LAYOUT_KEY);
  if (cached && cached.raw === raw) return cached.value;
  let value: LayoutPrefs;
  try {
    const parsed = raw ? (JSON.parse(raw) as Partial<LayoutPrefs>) : {};
    value = { layout: parsed.layout === 'top' ? 'top' : 'side', compact: parsed.compact === true };
  } catch {
    value = DEFAULTS;
  }
  cached = { raw, value };
  return value;
}

export function useLayoutPrefs(): [LayoutPrefs, (change: Partial<LayoutPrefs>) => void] {
  const prefs = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    () => DEFAULTS,
  );
  const update = useCallback((change: Partial<LayoutPrefs>) => {
    window.localStorage.setItem(LAYOUT_KEY, JSON.stringify({ ...read(), ...change }));
    for (const listener of listeners) listener();
  }, []);
  return [prefs, update];
}
