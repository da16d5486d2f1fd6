import { HAND_RECORD_FORMAT, loadTableSeed, type Db } from '@felt/db';
import {
  Table,
  bytesToHex,
  prepareDeck,
  randomAction,
  randomBytes,
  randomUuid,
  toRevealRecord,
  type Rng,
} from '@felt/engine';
import { parseRoomConfig } from '@felt/protocol';
import type { MoneySink } from '../../../test/money/sim-table.js';

/**
 * Plays `count` hands of a draw game at a room whose players sit through the lobby, and hands each
 * completed hand to `sink` as a worker enqueues it. The money suites' SimTable deals without the
 * deck seed that a draw game needs to reshuffle, so the history suite plays its draw hands here:
 * random legal actions, heavy drawing, so that six players reshuffle the discards now and then.
 */
export async function playDrawHands(db: Db, roomId: string, sink: MoneySink, rng: Rng, count: number): Promise<void> {
  const seed = await loadTableSeed(db, roomId, parseRoomConfig);
  if (!seed) throw new Error(`no room ${roomId}`);
  const config = seed.room.config;
  const table = new Table({
    game: config.game,
    limit: config.limit,
    stakes: { smallBlind: config.stakes.smallBlind, bigBlind: config.stakes.bigBlind },
    maxSeats: config.seats,
    rake: null,
  });
  for (const m of seed.members) table.sit(m.seat, m.userId, Number(m.stack), { post: true, name: m.name });
  let handNo = seed.room.lastHandNo;
  let clock = Date.parse('2026-12-02T12:00:00.000Z');
  for (let i = 0; i < count && table.planNextHand() !== null; i++) {
    const handId = randomUuid(rng);
    const { commitment, order } = prepareDeck({
      handId,
      serverSeed: randomBytes(rng, 32),
      clientSeeds: [],
      kind: table.rules.deck,
    });
    const startedAt = new Date((clock += 1000)).toISOString();
    const hand = table.startHand({ handId, deck: order, startedAt, deckSeed: bytesToHex(commitment.deckSeed) });
    while (!hand.isComplete) {
      const action = randomAction(hand, rng);
      if (action === null || hand.actor === null) throw new Error('stuck hand');
      hand.act(hand.actor, action);
    }
    table.finishHand(hand);
    await sink.hand({
      hand_id: handId,
      room_id: roomId,
      hand_no: ++handNo,
      game: hand.setup.game,
      limit: hand.setup.limit,
      blinds: { ...hand.setup.stakes } as Record<string, number>,
      started_at: startedAt,
      ended_at: new Date((clock += 1000)).toISOString(),
      payload: {
        format: HAND_RECORD_FORMAT,
        hand: JSON.parse(JSON.stringify(hand.toJSON())) as Record<string, unknown>,
        settlement: JSON.parse(JSON.stringify(hand.settlement)) as Record<string, unknown>,
        reveal: toRevealRecord(commitment, hand.setup.game, hand.dealtCards(), hand.reshuffles()),
        top_ups: [],
      },
    });
  }
}
