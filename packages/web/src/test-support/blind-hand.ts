// A real engine-blind hand (docs/fairness.md, "Engine-blind dealing") as the lobby's history serves it.
import { SeededRng, Table, randomBytes, shuffleDeck, viewOperationLog, type Card, type Hand } from '@felt/engine';
import { DealingMode, toHandAction, type HandDetail } from '@felt/protocol';
import { PLAYED_HAND } from './fixtures.js';

const SEATS = [1, 2, 3] as const;

/**
 * Plays an engine-blind hold'em hand, checked and called down to a showdown where the first player
 * asked shows and the others muck: the engine
 * deals deck indices only, and the board and the shown cards come from a deck only the players knew.
 */
export function playBlindHand(seed = 'web-blind'): { hand: Hand; deck: readonly Card[] } {
  const deck = shuffleDeck(randomBytes(new SeededRng(seed), 32), 'standard52');
  const table = new Table({ game: 'holdem', limit: 'nl', stakes: { smallBlind: 1, bigBlind: 2 }, maxSeats: 6 });
  for (const seat of SEATS) table.sit(seat, `00000000-0000-4000-8000-00000000000${seat}`, 200);
  const hand = table.startHand({ handId: '0b7f1c1e-2a8e-4d55-9b9a-1c2d3e4f5ab1', blind: true });
  const holeOf = (seat: number): Card[] =>
    hand.operations.flatMap((op) =>
      op.type === 'deal_hole' && op.seat === seat ? op.indices.map((i) => deck[i]!) : [],
    );
  while (!hand.isComplete) {
    const pending = hand.pendingBoard;
    const seat = hand.actor;
    if (pending !== null) hand.revealBoard(pending.indices.map((i) => deck[i]!));
    else if (seat === null) throw new Error('stuck hand');
    else if (hand.phase === 'showdown') {
      if (hand.operations.some((op) => op.type === 'show')) hand.muckBlind(seat);
      else hand.showBlind(seat, holeOf(seat));
    } else if (hand.canCheck(seat)) hand.check(seat);
    else hand.call(seat);
  }
  return { hand, deck };
}

/** The history's detail of an engine-blind hand for `viewer`: no seeds, and only shown hole cards. */
export function blindHandDetail(viewer = 2): HandDetail {
  const { hand } = playBlindHand();
  const settlement = hand.settlement!;
  const shown = new Map(hand.operations.flatMap((op) => (op.type === 'show' ? [[op.seat, op.cards] as const] : [])));
  return {
    hand_id: hand.handId,
    session_id: PLAYED_HAND.session_id,
    hand_no: 1,
    game: hand.setup.game,
    limit: hand.setup.limit,
    blinds: { smallBlind: 1, bigBlind: 2 },
    button: hand.setup.button,
    started_at: PLAYED_HAND.started_at,
    ended_at: PLAYED_HAND.ended_at,
    viewer_seat: viewer,
    board: [...hand.boardCards],
    pot_total: settlement.pots.reduce((n, p) => n + p.amount, 0),
    rake: settlement.rake.amount,
    dealing: DealingMode.ENGINE_BLIND,
    players: settlement.players.map((p) => ({
      seat: p.seat,
      user_id: p.id,
      name: `p${p.seat}`,
      starting_stack: p.startingStack,
      contributed: p.contributed,
      returned: p.returned,
      won: p.won,
      rake_paid: p.rakePaid,
      final_stack: p.finalStack,
      net: p.net,
      folded: p.folded,
      cards: shown.has(p.seat) ? [...shown.get(p.seat)!] : [null, null],
      shown: shown.has(p.seat),
    })),
    actions: viewOperationLog(hand.operations, viewer).map((v, seq) => toHandAction(seq, v)),
    pots: settlement.pots.map((p) => ({
      index: p.index,
      amount: p.amount,
      rake: p.rake,
      eligible: [...p.eligible],
      contested: p.contested,
      winners: p.winners,
    })),
    fairness: { seed_commit: null, server_seed: null, client_seeds: null, deck_seed: null, version: null, deck: null },
  };
}
