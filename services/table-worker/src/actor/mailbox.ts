import { CodedError } from '@felt/engine';

export const MailboxErrorCode = { CLOSED: 'mailbox_closed' } as const;
export type MailboxErrorCode = (typeof MailboxErrorCode)[keyof typeof MailboxErrorCode];

export class MailboxClosedError extends CodedError<MailboxErrorCode> {
  override readonly name = 'MailboxClosedError';
  constructor() {
    super(MailboxErrorCode.CLOSED, 'mailbox closed');
  }
}

/**
 * A serialized queue: tasks run one at a time in the order posted, and a task that fails does not
 * stop the ones behind it. This is what makes a table an actor: no two commands for one table ever
 * interleave, across any await.
 */
export class Mailbox {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private closed = false;

  /** Tasks posted and not yet finished, the running one included. */
  get depth(): number {
    return this.queued;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  post<T>(task: () => Promise<T> | T): Promise<T> {
    if (this.closed) return Promise.reject(new MailboxClosedError());
    this.queued++;
    const run = this.tail.then(
      () => task(),
      () => task(),
    );
    const done = run.finally(() => {
      this.queued--;
    });
    // The chain must not reject, or the next task would see the previous one's error.
    this.tail = done.catch(() => undefined);
    return done;
  }

  /** Refuses new tasks and resolves when the queued ones have run. */
  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
  }
}
