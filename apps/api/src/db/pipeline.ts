/**
 * A transaction's statements queued ahead of the work that needs their answers, so that the database works on them
 * while this process does its own part (a payment file's allocation, apply.ts): each statement goes to the connection
 * as soon as the one before it has answered, without waiting for the code that sent it. A connection runs one
 * statement at a time; the queue is kept here, in order, rather than in node-postgres (which deprecates queueing
 * on a busy client).
 *
 * After a failure the transaction is aborted: the statements behind it are not sent, and each answers the first
 * failure, the one that says what went wrong.
 */
export class Pipeline {
  #tail: Promise<void> = Promise.resolve();
  #failure: { error: unknown } | undefined;

  /** Queues `statement` (started when the statements before it have answered) and answers its result. */
  send<T>(statement: () => PromiseLike<T>): Promise<T> {
    const answer = this.#tail.then(() => {
      if (this.#failure) throw this.#failure.error;
      return statement();
    });
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
   * After a failure outside the pipeline (the caller's own error): sends nothing more, and waits for the statement in
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
