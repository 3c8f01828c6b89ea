import type { ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useRunProgress } from './run-progress';

type Answer = { runs: { status: string }[] };

/** Answers the given states one after the other, the last one from then on. */
function answering(...answers: Answer[]) {
  let asked = 0;
  return vi.fn(async () => answers[Math.min(asked++, answers.length - 1)]!);
}

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>
);

describe('useRunProgress', () => {
  // The clock runs, and a test moves it past the polling interval to see that nothing more is asked.
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it('asks again while a run waits or runs, tells once when it ends, and then stops asking', async () => {
    const queryFn = answering(
      { runs: [{ status: 'en espera' }] },
      { runs: [{ status: 'en curso' }] },
      { runs: [{ status: 'completado' }] },
    );
    const onEnded = vi.fn();
    const { result } = renderHook(
      () => useRunProgress({ queryKey: ['run'], queryFn, statuses: (answer: Answer) => answer.runs.map((run) => run.status), onEnded }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.data?.runs[0]!.status).toBe('completado'));
    expect(onEnded).toHaveBeenCalledTimes(1);
    expect(onEnded).toHaveBeenCalledWith({ runs: [{ status: 'completado' }] });
    const asked = queryFn.mock.calls.length;
    expect(asked).toBe(3);
    // Ended: five intervals pass and nothing more is asked.
    await vi.advanceTimersByTimeAsync(5000);
    expect(queryFn.mock.calls.length).toBe(asked);
  });

  it('asks once when nothing runs, and tells nothing', async () => {
    const queryFn = answering({ runs: [{ status: 'fallido' }] });
    const onEnded = vi.fn();
    const { result } = renderHook(
      () => useRunProgress({ queryKey: ['idle'], queryFn, statuses: (answer: Answer) => answer.runs.map((run) => run.status), onEnded }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    await vi.advanceTimersByTimeAsync(5000);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(onEnded).not.toHaveBeenCalled();
  });
});
