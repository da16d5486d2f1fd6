import type { CashOutJob } from '@felt/platform';
import type { CompletedHandJob } from '@felt/platform';
import { describe, expect, it } from 'vitest';
import { Outbox, outboxJobId } from './outbox.js';

const cashOut = (id: string) => ({ request_id: id }) as CashOutJob;
const hand = (id: string) => ({ hand_id: id }) as CompletedHandJob;

describe('Outbox', () => {
  it('keeps jobs oldest first until each is shifted out, and serializes what is left', () => {
    const outbox = new Outbox();
    outbox.push({ kind: 'hand', job: hand('h1') });
    outbox.push({ kind: 'cash_out', job: cashOut('leave-m1') });
    expect(outbox.length).toBe(2);
    expect(outboxJobId(outbox.peek()!)).toBe('h1');
    outbox.shift();
    expect(outboxJobId(outbox.peek()!)).toBe('leave-m1');
    expect(outbox.toJSON()).toEqual([{ kind: 'cash_out', job: cashOut('leave-m1') }]);
    outbox.shift();
    expect(outbox.peek()).toBeUndefined();
    expect(outbox.length).toBe(0);
  });

  it('reads older checkpoints, whose outbox held bare completed-hand jobs', () => {
    const outbox = new Outbox([hand('h1'), { kind: 'voided', job: { hand_id: 'h2' } as never }]);
    expect(outbox.toJSON()).toEqual([
      { kind: 'hand', job: hand('h1') },
      { kind: 'voided', job: { hand_id: 'h2' } },
    ]);
  });

  it('hands out a copy: changing it changes nothing inside', () => {
    const outbox = new Outbox([{ kind: 'hand', job: hand('h1') }]);
    outbox.toJSON().pop();
    expect(outbox.length).toBe(1);
  });
});
