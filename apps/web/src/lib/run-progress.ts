import { useEffect, useRef } from 'react';
import { useQuery, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { isRunActive } from '@portal/contract';

/** How often a screen asks again while a run it shows waits or runs. */
export const RUN_PROGRESS_MS = 1000;

/**
 * The one way a screen follows tracked runs (a payment file's application, a company's day close, the user's report
 * runs): the query whose answer holds them is asked again every second while one of them waits or runs, so a progress
 * bar moves and survives a reload, and stops when none does. When a run ends, `onEnded` reads again what it changed.
 */
export function useRunProgress<T>(options: {
  queryKey: QueryKey;
  queryFn: () => Promise<T>;
  enabled?: boolean;
  /** The states of the runs in the answer (null: no run). */
  statuses: (data: T) => readonly (string | null | undefined)[];
  onEnded?: (data: T) => void;
}): UseQueryResult<T> {
  const { statuses, onEnded, ...query } = options;
  const activeIn = (data: T | undefined) => (data === undefined ? 0 : statuses(data).filter(isRunActive).length);
  const result = useQuery({ ...query, refetchInterval: (current) => (activeIn(current.state.data) > 0 ? RUN_PROGRESS_MS : false) });
  const active = activeIn(result.data);
  const previous = useRef(active);
  const ended = useRef(onEnded);
  useEffect(() => {
    ended.current = onEnded;
  });
  useEffect(() => {
    // Fewer runs wait or run than at the last answer: one ended (here or in another tab).
    if (active < previous.current && result.data !== undefined) ended.current?.(result.data);
    previous.current = active;
  }, [active, result.data]);
  return result;
}
