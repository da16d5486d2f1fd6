import {
  initialDeck,
  randomInt,
  randomUnit,
  rankIndex,
  type Card,
  type GameRules,
  type HandState,
  type PlayerAction,
  type Rng,
  type ValidActions,
  type WagerRange,
} from '@felt/engine';

/** What a bot is shown: exactly what its seat's player would see (invariant 2), and its options. */
export interface BotView {
  readonly rules: GameRules;
  /** `hand.view(seat)`: other seats' unrevealed cards are null. */
  readonly state: HandState;
  readonly seat: number;
  readonly valid: ValidActions;
}

export interface BotOptions {
  /** Monte-Carlo deals per decision. */
  readonly iterations: number;
}

const DEFAULT_BOT_OPTIONS: BotOptions = { iterations: 200 };

/**
 * The built-in bot: it estimates its share of the pot by Monte-Carlo over the cards it cannot see
 * (the game's own showdown evaluators, every side of a split game), then bets for value, calls
 * when the price is right, bluffs rarely, and folds the rest. It reads only its own view, so it
 * knows nothing a human in its seat would not.
 */
export function decideBotAction(view: BotView, rng: Rng, options: BotOptions = DEFAULT_BOT_OPTIONS): PlayerAction {
  const { valid } = view;
  if (valid.discard !== null) return { type: 'discard', cards: chooseDiscards(view) };

  const opponents = view.state.players.filter((p) => p.seat !== view.seat && !p.folded).length;
  const equity = estimateEquity(view, rng, options.iterations);
  // 1 is a fair share among the players still in; above it the hand is ahead of the field.
  const strength = equity * (opponents + 1);
  const pot = valid.pot;

  if (valid.bringIn !== null) {
    if (valid.bet !== null && strength > 1.5) return { type: 'bet', to: sized(valid.bet, valid.currentBet, pot, rng) };
    return { type: 'bring_in' };
  }

  if (valid.call !== null) {
    const call = valid.call;
    const potOdds = call / (pot + call);
    if (valid.raise !== null && strength > 1.7 && randomUnit(rng) < 0.8) {
      return { type: 'raise', to: sized(valid.raise, valid.currentBet, pot, rng) };
    }
    if (equity >= potOdds * 0.9 || (call <= pot * 0.1 && randomUnit(rng) < 0.5)) return { type: 'call' };
    return valid.fold ? { type: 'fold' } : { type: 'call' };
  }

  if (valid.bet !== null && (strength > 1.3 || randomUnit(rng) < 0.06)) {
    return { type: 'bet', to: sized(valid.bet, valid.currentBet, pot, rng) };
  }
  if (valid.raise !== null && strength > 1.6) {
    return { type: 'raise', to: sized(valid.raise, valid.currentBet, pot, rng) };
  }
  if (valid.check) return { type: 'check' };
  return valid.fold ? { type: 'fold' } : { type: 'call' };
}

/** A "to" amount of half to a full pot over the current bet, inside the legal range. */
function sized(range: WagerRange, currentBet: number, pot: number, rng: Rng): number {
  if (range.choices !== undefined && range.choices.length > 0) {
    return range.choices[randomInt(rng, range.choices.length)]!;
  }
  const target = currentBet + Math.round(pot * (0.5 + 0.5 * randomUnit(rng)));
  return Math.min(range.max, Math.max(range.min, target));
}

/** Draw games are lowball here (2-7): throw away pairs and high cards, keep the best low. */
function chooseDiscards(view: BotView): Card[] {
  const me = view.state.players.find((p) => p.seat === view.seat);
  const hole = (me?.hole ?? []).filter((c): c is Card => c !== null);
  const max = view.valid.discard?.max ?? 0;
  const low = view.rules.showdown.every((s) => s.kind === 'low');
  const seen = new Set<number>();
  const out: Card[] = [];
  // Highest first, so that with a cap the worst cards go.
  for (const card of [...hole].sort((a, b) => rankIndex(b) - rankIndex(a))) {
    const r = rankIndex(card);
    const bad = low ? r >= rankIndex('9c') : r < rankIndex('Tc');
    if (seen.has(r) || bad) out.push(card);
    seen.add(r);
  }
  return out.slice(0, max);
}

/** The expected share of the pot, by dealing out the unseen cards `iterations` times. */
export function estimateEquity(view: BotView, rng: Rng, iterations: number): number {
  const { rules, state, seat } = view;
  const me = state.players.find((p) => p.seat === seat);
  if (!me) return 0;
  const myHole = me.hole.filter((c): c is Card => c !== null);
  const opponents = state.players.filter((p) => p.seat !== seat && !p.folded);
  if (opponents.length === 0) return 1;

  const known = new Set<Card>([...myHole, ...state.board]);
  for (const p of opponents) for (const c of p.hole) if (c !== null) known.add(c);
  const stub = initialDeck(rules.deck).filter((c) => !known.has(c));

  const isDraw = rules.streets.some((s) => s.draw);
  const finalBoard = Math.max(
    state.board.length,
    rules.streets.reduce((n, s) => n + s.board, 0),
  );
  const finalHole = isDraw ? myHole.length : rules.streets.reduce((n, s) => n + s.hole.length, 0);
  const needMine = Math.max(0, finalHole - myHole.length);
  const needBoard = finalBoard - state.board.length;
  let needTotal = needMine + needBoard;
  for (const p of opponents) needTotal += Math.max(0, finalHole - p.hole.filter((c) => c !== null).length);
  // Eight Stud players can outrun the deck (the engine then deals a community card): fall back to
  // a fair share rather than simulate an impossible deal.
  if (needTotal > stub.length) return 1 / (opponents.length + 1);

  let share = 0;
  const deck = [...stub];
  for (let i = 0; i < iterations; i++) {
    let next = 0;
    const draw = (): Card => {
      const j = next + randomInt(rng, deck.length - next);
      const tmp = deck[next]!;
      deck[next] = deck[j]!;
      deck[j] = tmp;
      return deck[next++]!;
    };
    const mine = [...myHole];
    for (let k = 0; k < needMine; k++) mine.push(draw());
    const board = [...state.board];
    for (let k = 0; k < needBoard; k++) board.push(draw());
    const hands = opponents.map((p) => {
      const h = p.hole.filter((c): c is Card => c !== null);
      while (h.length < finalHole) h.push(draw());
      return h;
    });
    share += potShare(rules, mine, hands, board);
  }
  return share / iterations;
}

/** My share of one pot between me and these hands: each side judged separately, ties split. */
function potShare(
  rules: GameRules,
  mine: readonly Card[],
  others: readonly (readonly Card[])[],
  board: Card[],
): number {
  const sides = rules.showdown;
  const results: number[] = [];
  let qualifyingSides = 0;
  for (const side of sides) {
    const me = side.evaluate(mine, board);
    let best = me;
    let winners = me === null ? 0 : 1;
    let iWin = me !== null;
    for (const h of others) {
      const v = side.evaluate(h, board);
      if (v === null) continue;
      if (best === null || v > best) {
        best = v;
        winners = 1;
        iWin = false;
      } else if (v === best) winners++;
    }
    if (best === null) {
      results.push(-1);
      continue;
    }
    qualifyingSides++;
    results.push(iWin ? 1 / winners : 0);
  }
  if (qualifyingSides === 0) return 0;
  // A side nobody qualifies for (no low) gives its half to the other side.
  let total = 0;
  for (const r of results) if (r >= 0) total += r / qualifyingSides;
  return total;
}
