// What the table actor's tests share: three players, a two-player table with both attached, and
// the first hand dealt on the harness clock.
import type { TableMessage, TableState, YourTurn } from '@felt/protocol';
import type { TableActor } from '../../src/actor/table-actor.js';
import { createActor, flush, pass, room, TABLE, uid, type Harness } from './fakes.js';

export const A = uid(1);
export const B = uid(2);
export const C = uid(3);

export function lastState(msgs: readonly TableMessage[]): TableState {
  const s = msgs.filter((m): m is TableState => m.type === 'table_state').at(-1);
  if (!s) throw new Error('no table_state');
  return s;
}

export async function twoPlayers(h: Harness, config = {}) {
  const actor = createActor(
    h,
    room(
      [
        { userId: A, name: 'Ann', seat: 1, stack: 200 },
        { userId: B, name: 'Bob', seat: 2, stack: 200 },
      ],
      config,
    ),
  );
  await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 's1', userId: A });
  await actor.submit({ kind: 'attach', connectionId: 'cb', streamId: 's1', userId: B });
  return actor;
}

/** Runs the pause and the seed window, so the first hand is dealt. */
export async function dealFirstHand(h: Harness): Promise<void> {
  h.time.advance(1_000);
  await flush();
  h.time.advance(1_500);
  await flush();
}

export function actorState(h: Harness, user: string): TableState {
  return lastState(h.publisher.toUser(user));
}

/** How a test's players answer a turn: the action (and amount) from what is valid. */
export type TurnChoice = (valid: YourTurn['valid_actions']) => {
  action: 'check' | 'call' | 'bet' | 'raise';
  amount?: number;
};

/** Check when free, else call: hands reach showdown and stacks move. */
export const checkOrCall: TurnChoice = (v) => ({ action: v.check ? 'check' : 'call' });

/** All in whenever they may (the largest bet or raise), else call or check: stacks move fast. */
export const shove: TurnChoice = (v) =>
  v.raise
    ? { action: 'raise', amount: v.raise.max }
    : v.bet
      ? { action: 'bet', amount: v.bet.max }
      : { action: v.call !== null ? 'call' : 'check' };

/**
 * Lets the table's clock run in 250 ms steps and answers every turn (`choose`: check, else call) until
 * `done` or `steps` run out; the caller checks `done` after.
 */
export async function playUntil(
  h: Harness,
  actor: TableActor,
  done: () => boolean,
  steps = 600,
  choose: TurnChoice = checkOrCall,
): Promise<void> {
  const answered = new Set<string>();
  for (let i = 0; i < steps && !done(); i++) {
    await pass(h, 250, 250);
    for (const p of h.publisher.all) {
      if (done()) return;
      const m = p.message;
      if (m.type !== 'your_turn' || p.audience.kind !== 'user' || answered.has(m.turn_token)) continue;
      answered.add(m.turn_token);
      const userId = p.audience.userId;
      const conn = actor.snapshot().connections.find((c) => c.userId === userId);
      if (!conn) continue;
      await actor.submit({
        kind: 'client',
        connectionId: conn.connectionId,
        userId,
        frame: {
          type: 'action',
          table_id: TABLE,
          hand_id: m.hand_id,
          turn_token: m.turn_token,
          command_id: `auto-${m.turn_token}`,
          ...choose(m.valid_actions),
        },
      });
    }
  }
}
