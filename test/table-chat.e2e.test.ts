// Table chat through the real cluster (2 gateways, a worker, the lobby) with SDK clients: two players
// on different gateways chat while their bots play, a burst runs into the per-user rate limit with
// its typed error and nothing of it leaks out, and a spectator is refused where the room lets only
// players chat.
import { CommandRefusedError, type TableSession } from '@felt/client';
import { CHAT_RATE } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/cluster.js';
import { waitFor } from './harness/wait.js';
import { TableCrew, type Member } from './sdk/crew.js';

/** Resolves once `session` has shown a chat message with `text`, returning it. */
function heard(session: TableSession, text: string) {
  return waitFor(`a chat message "${text}"`, () => session.chatLog().find((m) => m.text === text), 20_000, 20);
}

describe('table chat', () => {
  let cluster: Cluster;
  let crew: TableCrew;
  let ann: Member;
  let bob: Member;
  let spectator: Member;

  beforeAll(async () => {
    cluster = await Cluster.start({ gateways: 2, workers: 1, lobby: true, persister: false });
    crew = await TableCrew.create({
      lobbyUrl: cluster.lobby!.url,
      game: 'holdem',
      players: 2,
      spectators: 1,
      namePrefix: `t${Math.random().toString(36).slice(2, 8)}`,
      seed: 23,
      // The room's chat setting is the default one: players chat, spectators read.
    });
    [ann, bob] = crew.players as [Member, Member];
    spectator = crew.members.find((m) => m.role === 'spectator')!;
    await waitFor('everyone joined', () => crew.members.every((m) => m.session.status === 'joined'), 20_000);
  });

  afterAll(async () => {
    await crew?.stop();
    await cluster?.stop();
  });

  it('two players chat across gateways; everyone at the table, the spectator included, reads it', async () => {
    const annId = ann.session.state!.seats.find((s) => s.seat === ann.seat)!.user_id;
    await ann.session.sendChat('  good luck, Bob  ');
    for (const m of [ann, bob, spectator]) {
      const said = await heard(m.session, 'good luck, Bob');
      expect(said).toMatchObject({ user_id: annId, name: ann.name, role: 'player', seat: ann.seat });
    }
    await bob.session.sendChat('thanks, you too');
    const reply = await heard(ann.session, 'thanks, you too');
    expect(reply).toMatchObject({ name: bob.name, seat: bob.seat });
    // In table order: the reply came after the greeting.
    expect(ann.session.chatLog().map((m) => m.text)).toEqual(['good luck, Bob', 'thanks, you too']);
  });

  it('a burst runs into the rate limit with chat_rate_limited, and only what was accepted is sent', async () => {
    const texts = Array.from({ length: CHAT_RATE.burst + 3 }, (_, i) => `burst ${i}`);
    const results = await Promise.allSettled(texts.map((t) => bob.session.sendChat(t)));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(refused.length).toBeGreaterThan(0);
    for (const err of refused) {
      expect(err).toBeInstanceOf(CommandRefusedError);
      expect((err as CommandRefusedError).serverCode).toBe('chat_rate_limited');
    }
    const accepted = texts.filter((_, i) => results[i]!.status === 'fulfilled');
    // At most a full bucket, and what refilled while the burst was on its way.
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThanOrEqual(CHAT_RATE.burst + 1);
    // Ann's marker comes after the whole burst in the table's order: once Ann's own stream carried it,
    // every accepted message is in, and a refused one would have been too.
    await ann.session.sendChat('marker');
    await heard(ann.session, 'marker');
    const burstHeard = ann.session
      .chatLog()
      .map((m) => m.text)
      .filter((t) => t.startsWith('burst '));
    expect(burstHeard.sort()).toEqual(accepted.sort());
  });

  it('refuses a spectator where the room lets only players chat, and nobody hears it', async () => {
    const sent = spectator.session.sendChat('let me talk');
    await expect(sent).rejects.toBeInstanceOf(CommandRefusedError);
    await expect(sent).rejects.toMatchObject({
      serverCode: 'chat_disabled',
      refusal: { reason: 'spectators_muted' },
    });
    await ann.session.sendChat('after the spectator');
    await heard(bob.session, 'after the spectator');
    for (const m of crew.members) expect(m.session.chatLog().some((c) => c.text === 'let me talk')).toBe(false);
  });
});
