/**
 * A transaction's statements queued ahead of the work that needs their answers, so that the database works on them
 * while this process does its own part (a payment file's allocation, apply.ts).
 *
 * Two ways of sending, one contract. On a pipelined connection (`atOnce`: client.ts `pipelines`, openDatabase's pool
 * on PostgreSQL) each statement goes to the connection when queued, without waiting for the answers of those before
 * it: the server finds the next one waiting when it ends one, instead of staying idle until this process — busy
 * allocating — takes the answer and sends the next (decision 0018, docs/measurements.md "Stop 65"). Each statement
 * must then send its one query when called, or when its answer's `then` is called (a Drizzle query: `() =>
 * tx.execute(...)`), so that the connection gets them in the order queued; a function that awaits before querying
 * would be overtaken. Elsewhere (PGlite, a plain client) a statement is started once the one before it has answered,
 * in order, rather than queued in node-postgres (which deprecates queueing on a busy client).
 *
 * After a failure the transaction is aborted: the statements not yet sent are not sent, those already on the
 * connection fail with it ("current transaction is aborted"), and each answers the first failure, the one that says
 * what went wrong.
 */
export class Pipeline {
  /** Settles when every statement queued has answered (never rejects). */
  #tail: Promise<void> = Promise.resolve();
  #failure: { error: unknown } | undefined;
  readonly #atOnce: boolean;

  constructor(options: { atOnce?: boolean } = {}) {
    this.#atOnce = options.atOnce ?? false;
  }

  /** Queues `statement` (sent now on a pipelined connection, else when the statements before it have answered) and answers its result. */
  send<T>(statement: () => PromiseLike<T>): Promise<T> {
    const before = this.#tail;
    let answer: Promise<T>;
    if (this.#atOnce && !this.#failure) {
      // Sent now (`then` starts a Drizzle query); an answer that fails after an earlier one did reports that one, once
      // every statement before it has answered (in order: they were sent first).
      const sent = new Promise<T>((resolve, reject) => void statement().then(resolve, reject));
      answer = sent.catch(async (error: unknown) => {
        await before;
        throw (this.#failure ??= { error }).error;
      });
    } else {
      answer = before.then(() => {
        if (this.#failure) throw this.#failure.error;
        return statement();
      });
    }
    this.#tail = answer.then(
      () => undefined,
      (error: unknown) => void (this.#failure ??= { error }),
    );
    return answer;
  }

  /** Queues `statement` whose result is not needed: its failure is reported by `drain`. */
  queue(statement: () => PromiseLike<unknown>): void {
    this.send(statement).catch(() => undefined);
  }

  /**
   * After a failure outside the pipeline (the caller's own error): sends nothing more, and waits for the statements in
   * flight. The caller's transaction ends after this, so that no statement queued in it reaches the connection after
   * its ROLLBACK, where it would run on its own, outside the transaction.
   */
  async halt(error: unknown): Promise<void> {
    this.#failure ??= { error };
    await this.#tail;
  }

  /** Waits for every statement queued; throws the first failure. */
  async drain(): Promise<void> {
    await this.#tail;
    if (this.#failure) throw this.#failure.error;
  }
}

/** Lets the event loop run (a statement's answer arrives, the next one goes out) in the middle of long work. */
export const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
