// `npm run chaos -- --faults …`: the list is checked before anything starts, and a kind this chaos
// does not inject yet is refused by name rather than silently skipped.
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, FaultListError, parseFaults } from '../scripts/chaos/faults.js';
import { chaosFailed, chaosLine, type ChaosReport } from '../scripts/chaos/run.js';

describe('chaos fault list', () => {
  it('takes kinds in any order and returns them in the canonical order', () => {
    expect(parseFaults('persister,worker')).toEqual(['worker', 'persister']);
    expect(parseFaults(' gateway ')).toEqual(['gateway']);
    expect(parseFaults(FAULT_KINDS.join(','))).toEqual([...FAULT_KINDS]);
  });

  it('refuses an unknown kind and an empty list, naming the kind; postgres is injected now', () => {
    expect(() => parseFaults('workers')).toThrow(FaultListError);
    expect(() => parseFaults('workers')).toThrow(/unknown fault kind "workers"/);
    expect(() => parseFaults(',')).toThrow(/at least one/);
    expect(parseFaults('postgres,worker')).toEqual(['worker', 'postgres']);
  });
});

describe('the CHAOS line', () => {
  const base: ChaosReport = {
    seconds: 60,
    kills: 3,
    pauses: 1,
    faults: { worker: 4, gateway: 2, persister: 1, redis: 1, postgres: 1, link: 2 },
    hands: 100,
    resumed: 2,
    voided: 0,
    voidedBy: {},
    lostActions: 0,
    chipsDelta: 0n,
    staleWrites: 0,
    unconverged: 0,
    audit: 'ok',
    refusedStaleWrites: 0,
    ackedActions: 500,
    clients: 20,
    problems: [],
  };

  it('names every fault kind with its count, the voided hands by reason and the audit', () => {
    expect(chaosLine(base)).toBe(
      'CHAOS seconds=60 faults=worker:4,gateway:2,persister:1,redis:1,postgres:1,link:2 kills=3 pauses=1 hands=100 resumed=2 voided=0 ' +
        'lost_actions=0 chips_delta=0 stale_writes=0 unconverged=0 audit=ok',
    );
    expect(chaosFailed(base)).toBe(false);
    const voided = { ...base, voided: 2, voidedBy: { checkpoint_missing: 2 } };
    expect(chaosLine(voided)).toContain(' voided=2(checkpoint_missing:2) ');
  });

  it('fails on an audit violation even when every count is zero', () => {
    const bad = { ...base, audit: 'escrow_mismatch: room r escrow 10 but seats hold 12' };
    expect(chaosLine(bad)).toMatch(/ audit=escrow_mismatch$/);
    expect(chaosFailed(bad)).toBe(true);
  });
});
