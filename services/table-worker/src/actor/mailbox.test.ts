import { describe, expect, it } from 'vitest';
import { Mailbox, MailboxClosedError } from './mailbox.js';

/** A promise the test settles by hand: a task awaiting it stays suspended until the test says so. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('Mailbox', () => {
  it('runs tasks one at a time in posting order, even when they await', async () => {
    const box = new Mailbox();
    const log: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const started = gate();
    const gates = { a: gate(), b: gate(), c: gate() };
    const task = (name: keyof typeof gates) => async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      log.push(`start ${name}`);
      if (name === 'a') started.open();
      await gates[name].promise;
      log.push(`end ${name}`);
      running--;
      return name;
    };
    const results = Promise.all([box.post(task('a')), box.post(task('b')), box.post(task('c'))]);
    // a is suspended inside its await; releasing the later tasks first must not let them overtake it.
    await started.promise;
    gates.c.open();
    gates.b.open();
    gates.a.open();
    expect(await results).toEqual(['a', 'b', 'c']);
    expect(maxRunning).toBe(1);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('keeps going after a task throws, and reports the error to its poster only', async () => {
    const box = new Mailbox();
    const failing = box.post(() => {
      throw new Error('boom');
    });
    const after = box.post(() => 'ok');
    await expect(failing).rejects.toThrow('boom');
    await expect(after).resolves.toBe('ok');
    expect(box.depth).toBe(0);
  });

  it('read-modify-write under concurrency loses no update', async () => {
    const box = new Mailbox();
    let counter = 0;
    await Promise.all(
      Array.from({ length: 200 }, () =>
        box.post(async () => {
          const seen = counter;
          // Suspends the task between its read and its write, as an I/O call would.
          await Promise.resolve();
          counter = seen + 1;
        }),
      ),
    );
    expect(counter).toBe(200);
  });

  it('drains queued work on close and refuses new work', async () => {
    const box = new Mailbox();
    const held = gate();
    let done = false;
    void box.post(async () => {
      await held.promise;
      done = true;
    });
    // What `done` was when close() resolved: close must wait for the task still held at its gate.
    const closing = box.close().then(() => done);
    held.open();
    expect(await closing).toBe(true);
    await expect(box.post(() => 1)).rejects.toBeInstanceOf(MailboxClosedError);
  });
});
