// Components rendered to HTML with react-dom/server: what a player (and a screen reader) gets for a
// given state, without a browser. The Chromium suite covers behaviour; this covers markup.
import { CommandRefusedError, initialTableView, reduceTable, type HandFairness, type TurnInfo } from '@felt/client';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { dealerLines } from '../lib/chat-feed.js';
import { toTableModel, type ShowdownModel } from '../lib/table-model.js';
import type { FinishedHand, TableController, TableScreenState } from '../state/table-controller.js';
import {
  blindHand,
  dealingView,
  emptySeat,
  HAND,
  seat,
  STUD_VARIANT,
  TABLE,
  tableState,
  validActions,
} from '../test-support/fixtures.js';
import { ActionBar } from './action-bar.js';
import { Card } from './card.js';
import { ChatPanel } from './chat-panel.js';
import { FairnessBadge } from './fairness.js';
import { Felt } from './felt.js';
import { PreActionBar } from './pre-action-bar.js';
import { ShowdownPanel } from './showdown-panel.js';
import { SessionSummaryView } from './session-summary.js';
import { WalletEntries } from './wallet-screen.js';

const turn = (va = validActions()): TurnInfo => ({
  handId: HAND,
  seat: 2,
  turnToken: 'tok_abcdefghijklmnop',
  validActions: va,
  deadline: 1_764_400_030_000,
  timeBankMs: 60_000,
  fromSeq: 10,
});

const bar = (va = validActions()) =>
  renderToStaticMarkup(
    <ActionBar
      turn={turn(va)}
      bigUnit={20}
      heroCards={[]}
      selected={new Set()}
      clearSelection={() => undefined}
      busy={false}
      onAct={() => Promise.resolve(true)}
    />,
  );

describe('Card', () => {
  it('names the card for screen readers and hides face-down values', () => {
    expect(renderToStaticMarkup(<Card code="Qh" />)).toContain('aria-label="Queen of hearts"');
    const back = renderToStaticMarkup(<Card code={null} />);
    expect(back).toContain('aria-label="Face-down card"');
    expect(back).not.toMatch(/[2-9TJQKA][cdhs]/);
    expect(renderToStaticMarkup(<Card code="3c" up />)).toContain('Three of clubs, face up');
  });
});

describe('ActionBar', () => {
  it('shows every valid action with its amount and its shortcut', () => {
    const html = bar();
    expect(html).toMatch(/Fold <kbd[^>]*>F<\/kbd>/);
    expect(html).toMatch(/Call 20 <kbd[^>]*>C<\/kbd>/);
    expect(html).toMatch(/Raise to 40 <kbd[^>]*>R<\/kbd>/);
    expect(html).toMatch(/All-in 1,000 <kbd[^>]*>A<\/kbd>/);
    expect(html).toContain('aria-keyshortcuts="F"');
    expect(html).toContain('½ Pot');
    expect(html).toMatch(/type="range"[^>]*min="40"[^>]*max="1000"/);
    expect(html).not.toContain('Check');
  });

  it('offers check instead of fold and call when nothing is bet', () => {
    const html = bar(
      validActions({ fold: false, check: true, call: null, raise: null, bet: { min: 20, max: 1000 }, current_bet: 0 }),
    );
    expect(html).toContain('Check');
    expect(html).toContain('Bet 20');
    expect(html).not.toContain('Fold');
    expect(html).not.toContain('Call');
  });

  it('has no slider or pot buttons for a fixed-limit raise', () => {
    const html = bar(validActions({ raise: { min: 40, max: 40 }, all_in: null }));
    expect(html).toContain('Raise to 40');
    expect(html).not.toContain('type="range"');
    expect(html).not.toContain('½ Pot');
  });

  it('offers the Stud bring-in and completion', () => {
    const html = bar(
      validActions({ fold: false, call: null, raise: null, bring_in: 1, complete: { min: 2, max: 2 }, all_in: null }),
    );
    expect(html).toMatch(/Bring-in 1 <kbd[^>]*>B<\/kbd>/);
    expect(html).toContain('Complete to 2');
  });

  it('facing an all-in nobody can raise over: only fold and call, no raise or all-in control', () => {
    const html = bar(validActions({ fold: true, call: 3236, stack: 14_000, raise: null, bet: null, all_in: null }));
    expect(html).toContain('Fold');
    expect(html).toContain('Call 3,236');
    expect(html).not.toContain('Raise');
    expect(html).not.toContain('All-in');
    expect(html).not.toContain('type="range"');
  });

  it('marks an all-in call as such', () => {
    expect(bar(validActions({ call: 1000, stack: 1000, raise: null }))).toContain('Call 1,000 (all-in)');
  });
});

describe('ActionBar at an engine-blind showdown', () => {
  const show = validActions({ fold: true, check: false, call: null, raise: null, all_in: null, show: { cards: 2 } });
  const render = (onShow?: () => void) =>
    renderToStaticMarkup(
      <ActionBar
        turn={turn(show)}
        bigUnit={20}
        heroCards={[]}
        selected={new Set()}
        clearSelection={() => undefined}
        busy={false}
        onAct={() => Promise.resolve(true)}
        onShow={onShow}
      />,
    );

  it('offers Show and Muck only (Muck on the fold key), and no betting', () => {
    const html = render(() => undefined);
    expect(html).toContain('data-testid="blind-show"');
    expect(html).toContain('Showdown: show your cards to play for the pot, or muck them unseen.');
    expect(html).toMatch(/<button[^>]*data-testid="blind-show-cards"[^>]*>Show my cards<\/button>/);
    expect(html).toMatch(/Muck <kbd[^>]*>F<\/kbd>/);
    expect(html).not.toContain('Fold');
    expect(html).not.toContain('type="range"');
    expect(html).not.toMatch(/<button[^>]*disabled=""[^>]*data-testid="blind-show-cards"/);
  });

  it('holds Show when the page has no blind seat to show through', () => {
    expect(render()).toMatch(/<button[^>]*disabled=""[^>]*data-testid="blind-show-cards"/);
  });
});

describe('Felt', () => {
  it('renders Stud up cards face up for everyone and down cards face down for opponents', () => {
    const stud = tableState({
      hand_id: HAND,
      game: 'stud',
      variant: STUD_VARIANT,
      phase: 'betting',
      street: 'third',
      seats: [
        seat(1, { in_hand: true, folded: false, cards: [null, null, 'Kh'], up: [false, false, true] }),
        seat(2, { in_hand: true, folded: false, cards: ['As', 'Ad', '3c'], up: [false, false, true] }),
        emptySeat(3),
      ],
      hero: { seat: 2, cards: ['As', 'Ad', '3c'] },
    });
    const model = toTableModel(reduceTable(initialTableView(TABLE), stud).view)!;
    const html = renderToStaticMarkup(<Felt model={model} serverNow={() => 0} actionMs={30_000} reducedMotion />);
    expect(html).not.toContain('data-testid="board"');
    expect(html).toContain('aria-label="King of hearts, face up"');
    expect(html).toContain('Ace of spades, face down (only you see it)');
    expect((html.match(/Face-down card/g) ?? []).length).toBe(2);
  });

  it('says where an engine-blind deal stands, with its bar, while the players deal', () => {
    const dealing = tableState({
      hand_id: HAND,
      phase: 'dealing',
      street: 'preflop',
      seats: [seat(1, { in_hand: true, folded: false }), seat(2, { in_hand: true, folded: false })],
      hero: { seat: 2, cards: [] },
      dealing: dealingView({
        blind: blindHand({ phase: 'shuffle', shuffled: 1, shuffler: 1, seats: [2, 1], owed: null }),
      }),
    });
    const model = toTableModel(reduceTable(initialTableView(TABLE), dealing).view)!;
    const html = renderToStaticMarkup(<Felt model={model} serverNow={() => 0} actionMs={30_000} reducedMotion />);
    expect(html).toContain('Shuffling 2/2 — waiting for Player1');
    expect(html).toMatch(
      /data-testid="blind-progress" data-step="shuffle" data-done="1" data-total="2" data-waiting="1"/,
    );
    expect(html).toContain('style="width:50%"');
  });
});

describe('ShowdownPanel', () => {
  it('shows both halves of a hi-lo pot and the show-or-muck choice', () => {
    const sd: ShowdownModel = {
      handId: HAND,
      hiLo: true,
      rake: 0,
      pots: [
        {
          label: 'Main pot',
          amount: 200,
          rake: 0,
          noLow: false,
          winners: [
            { seat: 1, name: 'alice', amount: 100, side: 'high', handName: 'a flush' },
            { seat: 2, name: 'bob', amount: 100, side: 'low', handName: '8-6-4-3-2' },
          ],
        },
      ],
      shown: [{ seat: 1, name: 'alice', cards: ['Ah', '2h', 'Kc', 'Qd'], handNames: ['a flush'] }],
      mucked: [],
      players: [
        { seat: 1, name: 'alice', net: 20 },
        { seat: 2, name: 'bob', net: -20 },
      ],
    };
    const html = renderToStaticMarkup(
      <ShowdownPanel
        showdown={sd}
        canShow
        heroSeat={2}
        busy={false}
        onShow={() => undefined}
        onMuck={() => undefined}
      />,
    );
    expect(html).toMatch(/High<\/span><span class="winner__name">alice<\/span> wins <strong>100<\/strong>/);
    expect(html).toMatch(/Low<\/span><span class="winner__name">You<\/span> win <strong>100<\/strong>/);
    expect(html).toContain('with 8-6-4-3-2');
    expect(html).toContain('Show my cards');
    expect(html).toContain('Muck');
  });
});

describe('FairnessBadge', () => {
  const hand = (fairness: HandFairness | null): FinishedHand => ({
    handId: HAND,
    variant: null,
    result: {} as never,
    showdown: null,
    shown: [],
    seedCommit: null,
    reveal: null,
    fairness,
    names: new Map(),
  });

  it('is green only when the verifier passed', () => {
    const status = (h: FinishedHand | undefined) =>
      /data-status="(\w+)"/.exec(renderToStaticMarkup(<FairnessBadge hand={h} onOpen={() => undefined} />))![1];
    expect(status(undefined)).toBe('none');
    expect(status(hand(null))).toBe('pending');
    expect(status(hand({ ok: true } as HandFairness))).toBe('verified');
    expect(status(hand({ ok: false } as HandFairness))).toBe('failed');
  });
});

describe('PreActionBar', () => {
  const spot = (toCall: number, callIsAllIn = false) => ({ handId: HAND, street: 'flop', toCall, callIsAllIn });
  const render = (toCall: number, kind: 'check_fold' | 'check' | 'call' | 'call_any' | null, allIn = false) =>
    renderToStaticMarkup(
      <PreActionBar
        spot={spot(toCall, allIn)}
        selected={kind === null ? null : { kind, handId: HAND, street: 'flop', toCall }}
        onToggle={() => undefined}
      />,
    );

  it('offers Check/Fold, Check and Call any as toggle buttons when nothing is bet', () => {
    const html = render(0, 'check');
    expect(html).toContain('role="group"');
    expect(html).toContain('aria-label="Before your turn"');
    expect(html).toMatch(/<button[^>]*aria-pressed="false"[^>]*data-pre-action="check_fold"[^>]*>.*Check\/Fold/);
    expect(html).toMatch(/<button[^>]*aria-pressed="true"[^>]*data-pre-action="check"/);
    expect(html).toContain('Call any');
    expect(html).not.toContain('data-pre-action="call"');
    expect(html.match(/aria-pressed="true"/g)).toHaveLength(1);
  });

  it('offers Call N facing a bet, marked when it is all-in', () => {
    const html = render(40, null);
    expect(html).toContain('Call 40');
    expect(html).not.toContain('data-pre-action="check"');
    expect(html).not.toContain('aria-pressed="true"');
    expect(render(1000, 'call', true)).toContain('Call 1,000 (all-in)');
  });

  it('shows nothing when no pre-action is offered', () => {
    expect(renderToStaticMarkup(<PreActionBar spot={null} selected={null} onToggle={() => undefined} />)).toBe('');
  });
});

describe('WalletEntries', () => {
  it('lists each movement with its time, kind, room, signed amount and the balance after it', () => {
    const html = renderToStaticMarkup(
      <WalletEntries
        entries={[
          {
            id: 'b',
            at: '2026-12-01T10:05:00.000Z',
            kind: 'cash_out',
            amount: 1_250,
            balance: 10_150,
            room: { session_id: TABLE, code: '042817' },
          },
          { id: 'a', at: '2026-12-01T10:00:00.000Z', kind: 'buy_in', amount: -100, balance: 8_900, room: null },
          { id: 'g', at: '2026-12-01T09:00:00.000Z', kind: 'grant', amount: 9_000, balance: 9_000, room: null },
        ]}
      />,
    );
    const rows = html.split('<tr').slice(2);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/data-kind="cash_out"/);
    expect(rows[0]).toContain('Cash-out');
    expect(rows[0]).toContain(
      'Cash-out<span class="wallet-history__room">Room <span class="mono">042817</span></span>',
    );
    expect(rows[0]).toMatch(/class="num net--up">\+1,250</);
    expect(rows[0]).toContain('>10,150<');
    expect(rows[0]).toContain('dateTime="2026-12-01T10:05:00.000Z"');
    expect(rows[1]).toMatch(/class="num net--down">\u2212100</);
    expect(rows[1]).not.toContain('Room');
    expect(rows[2]).toContain('Chips granted');
  });
});

describe('SessionSummaryView', () => {
  it('shows hands played, the signed net and the biggest pot won', () => {
    const html = renderToStaticMarkup(
      <SessionSummaryView summary={{ hands: 12, net: -1_340, biggestPot: 2_400, counted: [] }} />,
    );
    expect(html).toMatch(/Hands played<\/dt><dd data-testid="session-hands">12</);
    expect(html).toMatch(/data-testid="session-net" class="net--down">\u22121,340</);
    expect(html).toMatch(/data-testid="session-biggest-pot">2,400</);
    const winning = renderToStaticMarkup(
      <SessionSummaryView summary={{ hands: 2, net: 50, biggestPot: 0, counted: [] }} />,
    );
    expect(winning).toMatch(/class="net--up">\+50</);
    expect(winning).toMatch(/data-testid="session-biggest-pot">None yet</);
    const none = renderToStaticMarkup(
      <SessionSummaryView summary={{ hands: 0, net: 0, biggestPot: 0, counted: [] }} />,
    );
    expect(none).toContain('No hands played here yet');
    expect(none).not.toContain('session-hands');
  });
});

describe('ChatPanel', () => {
  const message = (
    seq: number,
    userId: string,
    name: string,
    text: string,
    role: 'player' | 'spectator' = 'player',
  ) => ({
    type: 'chat_message' as const,
    table_id: TABLE,
    table_seq: seq,
    chat_id: `c${seq}`,
    user_id: userId,
    name,
    role,
    seat: role === 'player' ? seq : null,
    text,
    ts: 1_764_400_000_000,
  });
  const state = (over: Partial<TableScreenState> = {}) =>
    ({
      chat: [message(3, 'u-me', 'ann', 'hi all'), message(5, 'u-bo', 'bo', 'hey', 'spectator')],
      dealer: dealerLines(
        {
          hand_id: HAND,
          table_seq: 4,
          pots: [
            { index: 0, amount: 120, rake: 0, eligible: [1, 3], winners: [{ seat: 3, amount: 120, side: 'high' }] },
          ],
        },
        new Map([[3, 'ann']]),
        1_764_400_000_000,
      ),
      muted: new Map([['u-cy', 'cy']]),
      chatError: null,
      chatSending: false,
      ...over,
    }) as TableScreenState;
  const panel = (st: TableScreenState, host = false) =>
    renderToStaticMarkup(
      <ChatPanel
        controller={{} as TableController}
        st={st}
        meId="u-me"
        setting={{ enabled: true, spectators: false }}
        onSetting={host ? () => undefined : undefined}
      />,
    );

  it('lists messages and the dealer’s line in table order; names others can be muted by, not one’s own', () => {
    const html = panel(state());
    const order = ['hi all', 'ann wins 120 from the main pot', 'hey'].map((s) => html.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('Seat 3');
    expect(html).toContain('spectator');
    expect(html).toContain('aria-label="Mute bo: hide their messages"');
    expect(html).not.toContain('Mute ann');
    // The muted are listed to be unmuted.
    expect(html).toContain('aria-label="Unmute cy"');
    expect(html).toContain('aria-label="200 characters left"');
    // The room's switches are the host's only.
    expect(html).not.toContain('data-testid="chat-host"');
    expect(panel(state(), true)).toContain('data-testid="chat-host"');
  });

  it('shows a refusal in the catalog’s words; Send waits for something to send', () => {
    const refused = panel(
      state({
        chatError: new CommandRefusedError('c1', 'chat', {
          type: 'error',
          code: 'chat_disabled',
          reason: 'spectators_muted',
          message: 'x',
        }),
      }),
    );
    expect(refused).toMatch(/role="alert"[^>]*>Only players may chat at this table; spectators can read along\.</);
    expect(refused).toMatch(/<button type="submit"[^>]*disabled=""/);
  });
});
