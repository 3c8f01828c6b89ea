/**
 * The states of a tracked run (a day close, a payment file's application, a report run), one list for all of them:
 * the API's run tables hold them in a column named `status`, the screens read them to show progress.
 */
export const RUN_STATUSES = ['en espera', 'en curso', 'completado', 'fallido'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run that waits in the queue or runs: its screen asks for it again until it ends. */
export const isRunActive = (status: string | null | undefined): boolean => status === 'en espera' || status === 'en curso';
