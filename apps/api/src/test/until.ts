/**
 * Waits until a condition holds, for as long as the test itself may run: no budget of its own, so a busy machine
 * makes a test slower, never wrong. A condition that never comes fails the test by the test's own timeout; the
 * loop ends then too, as the test's signal aborts it.
 */
export async function until(condition: () => boolean | Promise<boolean>, options: { signal?: AbortSignal; intervalMs?: number } = {}) {
  const { signal, intervalMs = 50 } = options;
  while (!(await condition())) {
    if (signal?.aborted) throw new Error('La prueba terminó antes de que se cumpliera la condición.');
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
