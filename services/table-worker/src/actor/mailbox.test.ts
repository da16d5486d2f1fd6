import { describe, expect, it } from 'vitest';
import { Mailbox, MailboxClosedError } from './mailbox.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Mailbox', () => {
  it('runs tasks one at a time in posting order, even when they await', async () => {
    const box = new Mailbox();
    const log: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const task = (name: string, ms: number) => async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      log.push(`start ${name}`);
      await tick(ms);
      log.push(`end ${name}`);
      running--;
      return name;
    };
    const results = await Promise.all([box.post(task('a', 30)), box.post(task('b', 1)), box.post(task('c', 10))]);
    expect(results).toEqual(['a', 'b', 'c']);
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
          await tick(0);
          counter = seen + 1;
        }),
      ),
    );
    expect(counter).toBe(200);
  });

  it('drains queued work on close and refuses new work', async () => {
    const box = new Mailbox();
    let done = false;
    void box.post(async () => {
      await tick(10);
      done = true;
    });
    await box.close();
    expect(done).toBe(true);
    await expect(box.post(() => 1)).rejects.toBeInstanceOf(MailboxClosedError);
  });
});
