import { useCallback, useState } from 'react';

/**
 * What a user chose for a list's columns (hidden ones, widths, order), remembered in this browser per list, so a
 * clerk who hides CURP or widens Cliente finds the list that way tomorrow.
 */
export interface GridPrefs {
  hidden: string[];
  widths: Record<string, number>;
  order: string[];
}

const EMPTY: GridPrefs = { hidden: [], widths: {}, order: [] };
const keyOf = (list: string) => `grid-columns:${list}`;

export function readGridPrefs(list: string): GridPrefs | null {
  try {
    const stored = JSON.parse(window.localStorage.getItem(keyOf(list)) ?? 'null') as Partial<GridPrefs> | null;
    if (!stored || typeof stored !== 'object') return null;
    return {
      hidden: Array.isArray(stored.hidden) ? stored.hidden.filter((field) => typeof field === 'string') : [],
      widths: stored.widths && typeof stored.widths === 'object' ? stored.widths : {},
      order: Array.isArray(stored.order) ? stored.order.filter((field) => typeof field === 'string') : [],
    };
  } catch {
    return null;
  }
}

/** The list's remembered choice, or its defaults (`hidden`: columns a first visit does not show). */
export function useGridPrefs(list: string | undefined, defaultHidden: readonly string[] = []) {
  const [prefs, setPrefs] = useState<GridPrefs>(() => (list && readGridPrefs(list)) || { ...EMPTY, hidden: [...defaultHidden] });
  const change = useCallback(
    (next: (current: GridPrefs) => GridPrefs) =>
      setPrefs((current) => {
        const updated = next(current);
        if (list) window.localStorage.setItem(keyOf(list), JSON.stringify(updated));
        return updated;
      }),
    [list],
  );
  return [prefs, change] as const;
}

/** Moves `field` one place left (-1) or right (+1) in `order`, which is completed from `all` first. */
export function moveField(order: readonly string[], all: readonly string[], field: string, step: -1 | 1): string[] {
  const full = [...order.filter((name) => all.includes(name)), ...all.filter((name) => !order.includes(name))];
  const from = full.indexOf(field);
  const to = from + step;
  if (from < 0 || to < 0 || to >= full.length) return full;
  [full[from], full[to]] = [full[to]!, full[from]!];
  return full;
}
