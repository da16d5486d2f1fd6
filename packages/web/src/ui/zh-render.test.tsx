// Every screen, rendered in Chinese, has no English left in what a player reads or hears: its text
// and its aria-labels, titles, placeholders and value texts. A text that bypassed the catalog shows up
// here as an English word (the source scan beside the catalog catches the hard-coded ones before they
// render; this catches the ones built at run time). The lib's sentence builders are run over every
// code they know: table, lobby and SDK errors, hand names from the engine's grammar, streets, games,
// stakes, replay captions of real engine hands, and the room form's messages.
import {
  initialTableView,
  reduceTable,
  type HandFairness,
  type LobbyMe,
  type LobbyRoomSummary,
  type TableView,
  type TurnInfo,
} from '@felt/client';
import { CommandRefusedError, FeltSdkError, LobbyApiError, SdkErrorCode } from '@felt/client';
import {
  describeHigh,
  describeLow27,
  describeLowA5,
  gameIds,
  getGameRules,
  simulateHand,
  viewOperationLog,
  type Hand,
} from '@felt/engine';
import {
  BETTING_LIMITS,
  ERROR_CODES,
  GAME_TYPES,
  LOBBY_ERROR_CODES,
  toHandAction,
  type BlindFailureView,
  type HandDetail,
  type HandSummary,
  type RevealRecordView,
  type TableEvent,
  type TableState,
} from '@felt/protocol';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { App } from '../app.js';
import { applyLocale, t } from '../i18n/i18n.js';
import { errorText, lobbyErrorText, tableErrorText } from '../lib/error-text.js';
import { gameName, gameShortTitle, gameTitle, handNameText, stakesText, streetName } from '../lib/format.js';
import { dealerLines } from '../lib/chat-feed.js';
import { buildReplay, voidedText } from '../lib/replay.js';
import { BLIND_DEALING_GAMES, checkRoomForm, EMPTY_ROOM_FORM, roomIssueText, type RoomForm } from '../lib/room-form.js';
import { toTableModel, type TableModel } from '../lib/table-model.js';
import { AppState } from '../state/app-state.js';
import { ServerClock } from '../lib/clock.js';
import { Store } from '../state/store.js';
import type { FinishedHand, TableController, TableScreenState } from '../state/table-controller.js';
import {
  blindHand,
  dealingView,
  emptySeat,
  HAND,
  hex32,
  PLAYED_HAND as PLAYED,
  playerAction,
  seat,
  STUD_VARIANT,
  TABLE,
  tableState,
  TOURNAMENT,
  TOURNAMENT_CONFIG,
  tournamentDetail,
  tournamentSummary,
  tournamentView,
  validActions,
} from '../test-support/fixtures.js';
import { tournamentDetailHtml as detail } from '../test-support/tournament-detail.js';
import { blindHandDetail } from '../test-support/blind-hand.js';
import { ActionBar } from './action-bar.js';
import { ChatPanel } from './chat-panel.js';
import { PreActionBar } from './pre-action-bar.js';
import { CreateRoomDialog } from './create-room-dialog.js';
import { FairnessPanel } from './fairness.js';
import { HistoryDrawer, HistoryRow, Replay, VoidedHand } from './history-drawer.js';
import { JoinRoomDialog } from './join-room-dialog.js';
import { LobbyScreen, RoomsTable } from './lobby-screen.js';
import { TournamentsTable } from './tournaments-panel.js';
import { TournamentHeader, TournamentResultPanel } from './tournament-table.js';
import { TableRoom } from './table-screen.js';
import { ToastsView } from './toasts-view.js';
import { WalletEntries, WalletScreen } from './wallet-screen.js';
import { SessionSummaryDialog, SessionSummaryView } from './session-summary.js';
import { WALLET_ENTRY_KINDS, type WalletEntry } from '../lib/wallet-history.js';

/** Latin words a Chinese page may show: the brand, names of things that keep theirs, and fixture data. */
const ALLOWED = new Set([
  'Felt',
  'HORSE',
  'OHH',
  'PHH',
  // Each language is offered in its own name.
  'English',
  // Player names from the fixtures.
  'alice',
  'bob',
]);

/** What a person reads or hears in rendered markup: text, and the attributes read aloud or shown. */
function visibleText(html: string): string[] {
  const decode = (s: string): string =>
    s
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const attrs = [...html.matchAll(/\s(aria-label|aria-valuetext|title|placeholder|alt)="([^"]*)"/g)].map((m) =>
    decode(m[2]!),
  );
  const text = html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .split(/<[^>]*>/)
    .map((s) => decode(s).trim())
    .filter((s) => s !== '');
  return [...text, ...attrs];
}

/** English words in the texts: a run of Latin letters not part of a token with digits (ids, hashes). */
function englishWords(texts: readonly string[]): string[] {
  const out: string[] = [];
  for (const text of texts) {
    for (const token of text.match(/[A-Za-z0-9_-]+/g) ?? []) {
      // Ids, hashes, seeds and field names are data: tokens with digits or underscores, long hex runs.
      if (/[\d_]/.test(token) || !/[A-Za-z]/.test(token) || /^[0-9a-f]{8,}$/.test(token)) continue;
      // A single capital is a card rank or a key shortcut (A, K, Q, J; F, C, R).
      if (/^[A-Z]$/.test(token)) continue;
      if (!ALLOWED.has(token)) out.push(`${token}  ⟵  ${text}`);
    }
  }
  return out;
}

function expectChinese(html: string): void {
  expect(englishWords(visibleText(html))).toEqual([]);
}

const expectChineseText = (...texts: string[]): void => expect(englishWords(texts)).toEqual([]);

const render = (el: ReactElement): string => renderToStaticMarkup(el);

beforeAll(() => {
  applyLocale('zh-CN');
  // The app reads its route from the URL hash.
  vi.stubGlobal('location', { hash: '#/' });
});
afterAll(() => {
  applyLocale('en');
  vi.unstubAllGlobals();
});

// ---- fixtures --------------------------------------------------------------------------------

const ME: LobbyMe = {
  user: { id: '00000000-0000-4000-8000-000000000001', name: 'alice' },
  wallet: 12_500,
  practice_wallet: 0,
  seats: [{ session_id: '6f9619ff-8b86-4011-b42d-00c04fc964ff', code: '042817', seat: 2, stack: 1_200 }],
  locale: 'zh-CN',
};

const ROOM: LobbyRoomSummary = {
  session_id: '6f9619ff-8b86-4011-b42d-00c04fc964ff',
  code: '042817',
  status: 'open',
  game: 'holdem',
  limit: 'nl',
  stakes: '1/2',
  seats: 6,
  players: 2,
  buy_in: { min: 40, max: 400 },
  listed: true,
  practice: false,
  host_id: ME.user.id,
  created_at: '2026-01-01T00:00:00.000Z',
  waitlist: 0,
};

function appState(auth: AppState['auth'] extends Store<infer A> ? A : never): AppState {
  const app = new AppState({ languages: ['zh-CN'], storage: null });
  app.auth.set(auth);
  return app;
}

function feed(...messages: (TableState | TableEvent)[]): TableView {
  let view = initialTableView(TABLE);
  for (const m of messages) view = reduceTable(view, m).view;
  return view;
}

const inHand = (n: number, over: Parameters<typeof seat>[1] = {}) =>
  seat(n, { in_hand: true, folded: false, all_in: false, cards: [null, null], ...over });

const handState = (over: Partial<TableState> = {}): TableState =>
  tableState({
    hand_id: HAND,
    hand_seq: 5,
    phase: 'betting',
    street: 'flop',
    button: 1,
    small_blind: 1,
    big_blind: 2,
    board: ['2c', '7d', 'Jh'],
    seats: [
      inHand(1, { bet: 40, stack: 960, name: 'bob' }),
      inHand(2, { bet: 0, stack: 980, cards: ['As', 'Kd'], name: 'alice' }),
      seat(3, { status: 'sitting_out', name: 'Player3' }),
      seat(4, { status: 'away', name: 'Player4', bot: true }),
      seat(5, { status: 'disconnected', name: 'Player5' }),
      emptySeat(6),
    ],
    pots: [
      { amount: 120, eligible: [1, 2] },
      { amount: 60, eligible: [1, 2] },
    ],
    pot_total: 220,
    current_bet: 40,
    actor: 2,
    deadline: 1_764_400_030_000,
    time_bank_ms: 60_000,
    hero: { seat: 2, cards: ['As', 'Kd'] },
    seed_commit: `sha256:${'1'.repeat(64)}`,
    ...over,
  });

const turn = (va = validActions()): TurnInfo => ({
  handId: HAND,
  seat: 2,
  turnToken: 'tok_abcdefghijklmnop',
  validActions: va,
  deadline: 1_764_400_030_000,
  timeBankMs: 60_000,
  fromSeq: 10,
});

const RESULT: TableEvent = {
  type: 'hand_result',
  table_id: TABLE,
  table_seq: 21,
  hand_id: HAND,
  hand_seq: 31,
  pots: [
    {
      index: 0,
      amount: 200,
      rake: 5,
      eligible: [1, 2],
      winners: [
        { seat: 1, amount: 100, side: 'high' },
        { seat: 2, amount: 95, side: 'low' },
      ],
    },
    { index: 1, amount: 60, rake: 0, eligible: [1, 2], winners: [{ seat: 1, amount: 60, side: 'uncontested' }] },
  ],
  uncalled: [],
  rake: 5,
  players: [
    { seat: 1, net: 60, stack: 1060 },
    { seat: 2, net: -65, stack: 915 },
  ],
  hands: [
    { seat: 1, names: ['Full House, Kings over Fives', null] },
    { seat: 2, names: ['Pair of Aces', '8-6-4-3-2 low'] },
  ],
};

function tableModels(): Record<string, TableModel> {
  const betting = toTableModel(
    feed(
      handState({ table_seq: 10 }),
      {
        type: 'hand_started',
        table_id: TABLE,
        table_seq: 11,
        hand_id: HAND,
        hand_seq: 2,
        variant: tableState().variant,
        button: 1,
        seats: [1, 2],
        forced_bets: [
          { seat: 1, kind: 'small_blind', amount: 10, all_in: false },
          { seat: 2, kind: 'big_blind', amount: 20, all_in: false },
        ],
      },
      playerAction(1, 'raise', 12, { amount: 30, to: 40, all_in: false }),
      playerAction(2, 'call', 13, { amount: 20, timeout: true }),
      playerAction(1, 'bet', 14, { amount: 40, to: 40, all_in: true }),
    ),
  )!;
  const showdown = toTableModel(
    feed(
      handState({
        phase: 'complete',
        actor: null,
        deadline: null,
        game: 'omaha8',
        variant: { ...tableState().variant, game: 'omaha8', limit: 'pl' },
        board: ['2c', '7d', 'Jh', 'Qs', '3h'],
      }),
      {
        type: 'showdown',
        table_id: TABLE,
        table_seq: 20,
        hand_id: HAND,
        hand_seq: 30,
        reveal_timing: 'showdown',
        shown: [{ seat: 1, cards: ['Kh', 'Kc', '5s', '5d'], reason: 'last_aggressor' }],
        mucked: [2],
      },
      RESULT,
    ),
  )!;
  const stud = toTableModel(
    feed(
      tableState({
        hand_id: HAND,
        game: 'stud',
        variant: STUD_VARIANT,
        phase: 'betting',
        street: 'third',
        seats: [
          inHand(1, { cards: [null, null, 'Kh'], up: [false, false, true] }),
          inHand(2, { cards: ['As', 'Ad', '3c'], up: [false, false, true] }),
          emptySeat(3),
        ],
        hero: { seat: 2, cards: ['As', 'Ad', '3c'] },
        actor: 1,
        deadline: 1_764_400_030_000,
        time_bank_ms: 0,
      }),
    ),
  )!;
  const horse = toTableModel(
    feed(
      handState({
        game: 'horse',
        variant: { ...tableState().variant, game: 'holdem', limit: 'fl' },
        rotation: {
          format: 'horse',
          next: { game: 'omaha8', limit: 'fl', stakes: tableState().variant.stakes },
          hands_per_variant: 6,
          hands_played: 5,
        },
        actor: 1,
        closing: true,
      }),
    ),
  )!;
  const voided = toTableModel(
    feed(handState({ table_seq: 10, actor: 1 }), playerAction(1, 'check', 11), {
      type: 'hand_voided',
      table_id: TABLE,
      table_seq: 12,
      hand_id: HAND,
      hand_seq: 0,
      reason: 'room_closed',
      stacks: [
        { seat: 1, stack: 1000 },
        { seat: 2, stack: 1000 },
      ],
    }),
  )!;
  const base = (over: Partial<TableState>): TableModel => toTableModel(feed(tableState(over)))!;
  // Engine-blind: bob (seat 1) and alice (seat 2, the hero) deal a hand among themselves.
  const blindState = (blind: Parameters<typeof blindHand>[0], over: Partial<TableState> = {}): TableState =>
    handState({
      phase: 'dealing',
      street: 'preflop',
      board: [],
      seats: [inHand(1, { name: 'bob' }), inHand(2, { name: 'alice' }), emptySeat(3)],
      pots: [],
      pot_total: 0,
      current_bet: 0,
      actor: null,
      deadline: null,
      hero: { seat: 2, cards: [] },
      dealing: dealingView({ blind: blindHand({ owed: { key: false, shuffle: false, positions: [] }, ...blind }) }),
      ...over,
    });
  const blind = (b: Parameters<typeof blindHand>[0], over: Partial<TableState> = {}, audit = false): TableModel =>
    toTableModel(feed(blindState(b, over)), {
      handId: HAND,
      holeCards: ['Qh', 'Jc'],
      audit: audit ? { step: 'shares', seat: 1, detail: 'share does not verify' } : null,
    })!;
  const failure: BlindFailureView = { reason: 'timeout', step: 'shuffle', seats: [1] };
  return {
    blindKeys: blind({ phase: 'keys', keys: { '2': hex32(2) } }),
    blindKeysHero: blind({ phase: 'keys', owed: { key: true, shuffle: true, positions: [] } }),
    blindShuffle: blind({ phase: 'shuffle', shuffled: 0, shuffler: 1 }),
    blindShuffleHero: blind({ phase: 'shuffle', shuffled: 1, shuffler: 2 }),
    blindCards: blind({ phase: 'play', positions: [{ position: 4, to: 'board', due: 1, shares: { '2': hex32(2) } }] }),
    blindAudit: blind({ phase: 'play' }, {}, true),
    blindShowdown: {
      ...blind({ phase: 'play' }, { phase: 'showdown', street: 'river', board: ['2c', '7d', 'Jh', 'Qs', '3h'] }),
      turn: turn(validActions({ fold: true, check: false, call: null, raise: null, all_in: null, show: { cards: 2 } })),
    },
    blindDowngraded: base({
      hero: { seat: 1, cards: [] },
      seats: [seat(1, { name: 'alice' }), seat(2, { name: 'bob' })],
      dealing: { mode: 'standard', downgraded: { hand_id: HAND, failure }, blind: null },
    }),
    blindVoided: toTableModel(
      feed(blindState({ phase: 'shuffle', shuffler: 1 }), {
        type: 'hand_voided',
        table_id: TABLE,
        table_seq: 12,
        hand_id: HAND,
        hand_seq: 0,
        reason: 'engine_blind_failed',
        blind_failure: failure,
        stacks: [
          { seat: 1, stack: 1000 },
          { seat: 2, stack: 1000 },
        ],
      }),
    )!,
    betting: { ...betting, turn: turn() },
    bettingOther: betting,
    showdown,
    stud,
    horse,
    voided,
    draw: {
      ...toTableModel(
        feed(
          handState({
            game: '27td',
            variant: { ...tableState().variant, game: '27td', limit: 'fl' },
            street: 'first_draw',
            board: [],
            seats: [inHand(1), inHand(2, { cards: ['2c', '3d', '4h', '7s', 'Kd'] }), emptySeat(3)],
            hero: { seat: 2, cards: ['2c', '3d', '4h', '7s', 'Kd'] },
          }),
        ),
      )!,
      turn: turn(validActions({ fold: false, call: null, raise: null, all_in: null, discard: { max: 5 } })),
    },
    waitingAlone: base({ seats: [seat(1, { name: 'alice' }), emptySeat(2)], hero: { seat: 1, cards: [] } }),
    waiting: base({ hero: { seat: 1, cards: [] }, bots_blocked: 'daily_limit' }),
    seeding: base({ phase: 'seeding', hero: { seat: 1, cards: [] }, bots_blocked: 'room_limit' }),
    folded: toTableModel(
      feed(
        handState({
          actor: 1,
          seats: [inHand(1), inHand(2, { folded: true, cards: ['As', 'Kd'] }), emptySeat(3)],
          bots_blocked: 'bankroll_empty',
        }),
      ),
    )!,
    sittingOut: base({ seats: [seat(1, { status: 'sitting_out' }), seat(2)], hero: { seat: 1, cards: [] } }),
    broke: base({ seats: [seat(1, { status: 'sitting_out', stack: 0 }), seat(2)], hero: { seat: 1, cards: [] } }),
    spectator: toTableModel(feed(handState({ hero: undefined, seats: [inHand(1), inHand(2), emptySeat(3)] })))!,
  };
}

const REVEAL = {
  version: 'felt-deck-v1',
  deck: 'standard52',
  server_seed: 'a'.repeat(64),
  deck_seed: 'b'.repeat(64),
  client_seeds: [
    { seat: 1, seed: 'c'.repeat(64) },
    { seat: 2, seed: 'd'.repeat(64) },
  ],
  dealt: [
    { index: 0, card: 'As' },
    { index: 1, card: 'Kd' },
  ],
} as unknown as RevealRecordView;

function finished(fairness: HandFairness | null, handId = HAND): FinishedHand {
  return {
    handId,
    variant: { game: 'holdem', limit: 'nl' },
    result: {} as never,
    showdown: null,
    shown: [],
    seedCommit: `sha256:${'1'.repeat(64)}`,
    reveal: fairness === null ? null : REVEAL,
    fairness,
    names: new Map(),
  };
}

const passed = {
  ok: true,
  commitSeenBeforeDeal: false,
  serverSeedOnly: false,
  unexplainedCards: [],
  ownSeed: { seat: 2, seed: 'd'.repeat(64), status: 'accepted' },
  result: {
    clientSeedCount: 2,
    checks: {
      structure: 'passed',
      version: 'passed',
      commit: 'passed',
      deckSeed: 'passed',
      indices: 'passed',
      cards: 'passed',
      reshuffles: 'n/a',
      ownSeed: 'skipped',
    },
    failures: [],
  },
} as unknown as HandFairness;

const failed = {
  ...passed,
  ok: false,
  serverSeedOnly: true,
  unexplainedCards: ['Qs'],
  result: {
    ...passed.result,
    clientSeedCount: 0,
    checks: { ...passed.result.checks, commit: 'failed', deckSeed: 'failed' },
    failures: [
      { code: 'malformed_field', field: 'deck_seed', message: 'x' },
      { code: 'unsupported_version', version: 'felt-deck-v9', message: 'x' },
      { code: 'commit_mismatch', against: 'expected', computed: 'a', claimed: 'b', message: 'x' },
      { code: 'commit_mismatch', against: 'record', computed: 'a', claimed: 'b', message: 'x' },
      { code: 'deck_seed_mismatch', computed: 'a', claimed: 'b', message: 'x' },
      { code: 'indices_not_contiguous', missing: [3], duplicated: [], outOfRange: [], message: 'x' },
      { code: 'card_mismatch', index: 4, recorded: 'As', expected: 'Kd', message: 'x' },
      { code: 'reshuffle_invalid', reshuffle: 1, atIndex: 30, reason: 'x', message: 'x' },
      { code: 'own_seed_missing', seat: 2, reason: 'seat_absent', message: 'x' },
    ],
  },
} as unknown as HandFairness;

const CHAT: TableScreenState['chat'] = [
  {
    type: 'chat_message',
    table_id: TABLE,
    table_seq: 40,
    chat_id: 'c1',
    user_id: ME.user.id,
    name: 'alice',
    role: 'player',
    seat: 2,
    text: '大家好',
    ts: 1_764_400_000_000,
  },
  {
    type: 'chat_message',
    table_id: TABLE,
    table_seq: 44,
    chat_id: 'c2',
    user_id: '00000000-0000-4000-8000-000000000007',
    name: 'bob',
    role: 'spectator',
    seat: null,
    text: '好牌',
    ts: 1_764_400_030_000,
  },
];

const DEALER = dealerLines(
  {
    hand_id: HAND,
    table_seq: 42,
    pots: [
      { index: 0, amount: 120, rake: 0, eligible: [1, 2], winners: [{ seat: 2, amount: 120, side: 'high' }] },
      {
        index: 1,
        amount: 80,
        rake: 0,
        eligible: [1, 2],
        winners: [
          { seat: 1, amount: 40, side: 'high' },
          { seat: 2, amount: 40, side: 'low' },
        ],
      },
    ],
  },
  new Map([[2, 'alice']]),
  1_764_400_020_000,
);

function controllerFor(model: TableModel, over: Partial<TableScreenState> = {}): TableController {
  const state: TableScreenState = {
    view: initialTableView(TABLE),
    model,
    session: 'joined',
    connection: 'open',
    resyncing: false,
    finished: [finished(passed)],
    closedReason: null,
    busy: false,
    preAction: null,
    summary: { hands: 3, net: -120, biggestPot: 480, counted: ['h1', 'h2', 'h3'] },
    chat: CHAT,
    dealer: DEALER,
    muted: new Map([['00000000-0000-4000-8000-000000000009', 'bob']]),
    chatError: null,
    chatSending: false,
    tournament: null,
    movedTo: null,
    addOn: null,
    ...over,
  };
  return {
    store: new Store(state),
    clock: new ServerClock(() => 1_764_400_000_000),
    tableId: TABLE,
  } as unknown as TableController;
}

/** Real hands of every game, as the lobby's history serves them to a seat and to a spectator. */
function engineDetails(): HandDetail[] {
  const details: HandDetail[] = [];
  for (const id of gameIds()) {
    const rules = getGameRules(id);
    for (let i = 0; i < 3; i++) {
      const hand: Hand = simulateHand({
        rules,
        limit: rules.defaultLimit,
        players: id === '27td' ? 6 : { min: 2, max: rules.maxSeats },
        rake: true,
        seed: `zh-${id}-${i}`,
      }).hand;
      for (const viewer of [null, hand.setup.players[0]!.seat]) {
        details.push({
          hand_id: hand.handId,
          session_id: PLAYED.session_id,
          hand_no: i + 1,
          game: hand.setup.game,
          limit: hand.setup.limit,
          blinds: null,
          button: hand.setup.button,
          started_at: PLAYED.started_at,
          ended_at: PLAYED.ended_at,
          viewer_seat: viewer ?? 0,
          board: [...hand.boardCards],
          pot_total: 100,
          rake: 0,
          players: hand.setup.players.map((p) => ({
            seat: p.seat,
            user_id: p.id,
            name: p.seat % 2 === 0 ? 'alice' : 'bob',
            starting_stack: p.stack,
            contributed: 0,
            returned: 0,
            won: 0,
            rake_paid: 0,
            final_stack: p.stack,
            net: 0,
            folded: false,
            cards: [],
            shown: false,
          })),
          actions: viewOperationLog(hand.operations, viewer).map((v, seq) => toHandAction(seq, v)),
          pots: [],
          fairness: {
            seed_commit: null,
            server_seed: null,
            client_seeds: null,
            deck_seed: null,
            version: null,
            deck: null,
          },
        });
      }
    }
  }
  return details;
}

// ---- the screens -----------------------------------------------------------------------------

describe('every screen in Chinese', () => {
  it('the check itself: English in a Chinese page is found', () => {
    expect(englishWords(visibleText('<p title="Close">好</p><span>关闭 Fold</span>'))).toHaveLength(2);
    expect(englishWords(visibleText(`<p>sha256:${'ab'.repeat(8)} felt-deck-v1 A K Felt alice 12,500</p>`))).toEqual([]);
  });

  it('loading, sign-in and sign-up', () => {
    expectChinese(render(<App app={appState({ status: 'loading' })} />));
    const signedOut = appState({ status: 'signed_out' });
    signedOut.toasts.show(t('app.sessionEnded'));
    const html = render(<App app={signedOut} />);
    expect(html).toContain('创建账户');
    expectChinese(html);
  });

  it('the lobby: app bar, seats, tables, the join and create dialogs', () => {
    const app = appState({ status: 'signed_in', me: ME });
    const lobby = render(<App app={app} />);
    expect(lobby).toContain('大厅');
    expect(lobby).toContain('12,500');
    expectChinese(lobby);
    expectChinese(render(<LobbyScreen app={app} me={ME} go={() => undefined} />));
    const rooms: LobbyRoomSummary[] = [
      ROOM,
      { ...ROOM, session_id: '7f9619ff-8b86-4011-b42d-00c04fc964ff', game: 'stud', limit: 'fl', players: 6 },
      { ...ROOM, session_id: '8f9619ff-8b86-4011-b42d-00c04fc964ff', game: 'horse', limit: 'fl' },
    ];
    expectChinese(render(<RoomsTable rooms={rooms} seated={new Set([ROOM.session_id])} onJoin={() => undefined} />));
    expectChinese(
      render(<JoinRoomDialog app={app} room={ROOM} onClose={() => undefined} onJoined={() => undefined} />),
    );
    const create = render(<CreateRoomDialog app={app} open onClose={() => undefined} onCreated={() => undefined} />);
    expect(create).toContain('房间规则');
    expectChinese(create);
  });

  it('the tournaments tab: the list, and one tournament in every state of registration', () => {
    const app = appState({ status: 'signed_in', me: ME });
    // Tournament names are the operator's data: Chinese ones here, so any English is the page's own.
    const name = '周日锦标赛';
    const players = tournamentDetail().players.map((p, i) => ({ ...p, name: ['alice', 'bob', '小明'][i]! }));
    const route = { name: 'tournaments', tournamentId: null } as const;
    const loading = render(<LobbyScreen app={app} me={ME} go={() => undefined} route={route} />);
    expect(loading).toContain('锦标赛');
    expectChinese(loading);
    app.tournaments.list.set({ tournaments: [], error: null });
    expectChinese(render(<LobbyScreen app={app} me={ME} go={() => undefined} route={route} />));
    const list = render(
      <TournamentsTable
        tournaments={[
          ...(['registering', 'running', 'finished', 'cancelled'] as const).flatMap((status, i) => [
            tournamentSummary({ id: `${i}a`, name, status }),
            tournamentSummary({ id: `${i}b`, name, status, format: 'sit_and_go', starts_at: null, buy_in: 0, fee: 0 }),
          ]),
          tournamentSummary({ id: 'late', name, status: 'running', late_registration_open: true }),
          tournamentSummary({
            id: 'reentry',
            name,
            status: 'running',
            late_registration_open: true,
            re_entry_open: true,
          }),
        ]}
      />,
    );
    expect(list).toContain('坐满即开');
    expect(list).toContain('进行中，仍可迟到报名和重新买入');
    expectChinese(list);
    const running = {
      status: 'running' as const,
      late_registration_open: true,
      re_entry_open: true,
      players: players.map((p, i) => ({ ...p, status: i === 0 ? ('busted' as const) : ('playing' as const) })),
    };
    const reEntered = {
      ...running,
      registered: true,
      players: [...running.players, { ...players[0]!, entry_no: 2, status: 'playing' as const }],
    };
    for (const over of [
      { registered: true },
      { registered: false },
      { registered: false, entrants: 100, max_entrants: 100 },
      { status: 'running' as const },
      { status: 'running' as const, your_table_id: '6f9619ff-8b86-4011-b42d-00c04fc964ff' },
      {
        status: 'finished' as const,
        players: players.map((p, i) => ({ ...p, status: 'finished' as const, place: i + 1, prize: i === 0 ? 300 : 0 })),
      },
      { players: [], payouts: [] },
      { ...running, registered: false, can_re_enter: true },
      { ...running, registered: false, can_re_enter: false },
      reEntered,
    ]) {
      const html = detail(
        { name, players, ...over },
        { error: new LobbyApiError(409, 'tournament_full', 'every place is taken') },
      );
      expect(html).toContain('盲注结构');
      // A re-entry numbered among the entrants.
      if (over === reEntered) expect(html).toContain('data-testid="entry-mark">第 2 次买入</span>');
      expectChinese(html);
    }
    // The re-entry rule among the facts, and a refused re-entry in words.
    const reEntry = detail(
      { name, ...running, can_re_enter: true },
      {
        error: new LobbyApiError(409, 'tournament_closed', 'this tournament takes no registrations now'),
        failed: 're_enter',
      },
      { ...TOURNAMENT_CONFIG, lateRegistrationLevels: 3, reEntry: { max: 2, untilLevel: 3 } },
    );
    expect(reEntry).toContain('最多 2 次，截至第 3 级结束');
    expect(reEntry).toContain('你现在不能重新买入该锦标赛');
    expect(reEntry).toContain('>重新买入</button>');
    expectChinese(reEntry);
    // The add-on among the facts, on sale to you, and a refused one in words.
    const addOn = { ...TOURNAMENT_CONFIG, addOn: { chips: 5_000, cost: 100 } };
    const onSale = {
      name,
      ...running,
      add_on_open: true,
      add_on_until: new Date(Date.now() + 600_000).toISOString(),
      can_add_on: true,
    };
    const offered = detail(
      onSale,
      { error: new LobbyApiError(409, 'insufficient_funds', 'x'), failed: 'add_on' },
      addOn,
    );
    expect(offered).toContain('第一次休息时可花 100 加码 5,000 筹码');
    expect(offered).toContain('>购买加码：5,000 筹码，售价 100</button>');
    expect(offered).toContain('加码正在发售，仅限本次休息。');
    expectChinese(offered);
    const over = detail(
      { ...onSale, add_on_open: false, can_add_on: false },
      { error: new LobbyApiError(409, 'tournament_closed', 'no add-on on sale'), failed: 'add_on' },
      addOn,
    );
    expect(over).toContain('加码已停止发售：本次休息已经结束。');
    expectChinese(over);
    expectChineseText(
      t('tournaments.addOnRuleFree', { chips: '5,000' }),
      t('tournaments.addOnBuyFree', { chips: '5,000' }),
      t('tournaments.addOnDuringBreak'),
      t('tournaments.addOnBought', { name, chips: '5,000' }),
      t('tournaments.addOnNotPlaying'),
      t('wallet.kind.tournament_add_on'),
      t('wallet.kind.tournament_add_on_refund'),
    );
    // A structure that cannot be read, as seen by someone not among the entrants.
    expectChinese(detail({ name, players, config: { ...tournamentDetail().config, buyIn: -1 } }, { meId: '' }));
    app.tournaments.detail.set({ id: TOURNAMENT, tournament: null, error: null });
    expectChinese(
      render(
        <LobbyScreen
          app={app}
          me={ME}
          go={() => undefined}
          route={{ name: 'tournaments', tournamentId: TOURNAMENT }}
        />,
      ),
    );
  });

  it('a tournament’s table: the tournament line in every clock state, the result, the table itself', () => {
    const app = appState({ status: 'signed_in', me: ME });
    const now = (): number => 1_764_400_000_000;
    // The tournament's name is the operator's data: a Chinese one here.
    const view = (over: Parameters<typeof tournamentView>[0] = {}) => tournamentView({ name: '周日锦标赛', ...over });
    for (const v of [
      view(),
      view({ level: { ...view().level, ante: 0, big_blind_ante: 200 }, hand_for_hand: true }),
      view({ level_ends_at: null, break_ends_at: 1_764_400_300_000 }),
      view({ level_ends_at: null }),
      view({ level_ends_at: 1_764_399_000_000, next_level: null }),
      view({ players_left: 1, stacks: [90_000] }),
    ]) {
      for (const compact of [false, true]) {
        const html = render(
          <TournamentHeader
            tournament={{ view: v, place: 3, result: null, pending: null }}
            serverNow={now}
            compact={compact}
          />,
        );
        expect(html).toContain('第 3 级');
        expectChinese(html);
      }
    }
    for (const [place, prize] of [
      [1, 500],
      [3, 100],
      [6, 0],
    ] as const) {
      const html = render(
        <TournamentResultPanel
          result={{ place, prize }}
          view={{ tournament_id: TOURNAMENT, entrants: 9 }}
          onExit={() => undefined}
        />,
      );
      expect(html).toContain('锦标赛详情');
      expectChinese(html);
    }
    const model = tableModels().waiting!;
    for (const tournament of [
      { view: view(), place: 2, result: null, pending: null },
      { view: view({ break_ends_at: 1_764_400_300_000 }), place: 2, result: null, pending: null },
      { view: view({ hand_for_hand: true }), place: 2, result: null, pending: null },
      { view: view(), place: null, result: { place: 4, prize: 0 }, pending: null },
    ]) {
      const html = render(
        <TableRoom app={app} controller={controllerFor(model, { tournament })} onExit={() => undefined} />,
      );
      expect(html).toContain('data-testid="tournament-bar"');
      expectChinese(html);
    }
    // The add-on on sale during a break, at the table and in a tile.
    const addOn = { tournamentId: TOURNAMENT, chips: 5_000, cost: 100, until: 1_764_400_240_000, busy: false };
    for (const tile of [undefined, { compact: true, shortcutsActive: true, onClose: () => undefined }]) {
      const html = render(
        <TableRoom
          app={app}
          controller={controllerFor(model, {
            tournament: { view: view({ break_ends_at: 1_764_400_300_000 }), place: 2, result: null, pending: null },
            addOn,
          })}
          onExit={() => undefined}
          tile={tile}
        />,
      );
      expect(html).toContain('>购买加码：5,000 筹码，售价 100</button>');
      expect(html).toContain('剩余 4:00');
      expectChinese(html);
    }
    expectChineseText(t('tournamentTable.moved'));
  });

  it('the table in every phase, for a player and a spectator', () => {
    const app = appState({ status: 'signed_in', me: ME });
    for (const [name, model] of Object.entries(tableModels())) {
      const html = render(<TableRoom app={app} controller={controllerFor(model)} onExit={() => undefined} />);
      expect(html, name).toContain('data-testid="table"');
      expectChinese(html);
    }
    const model = tableModels().betting!;
    // The sound toggle, on and off.
    const sounding = render(<TableRoom app={app} controller={controllerFor(model)} onExit={() => undefined} />);
    expect(sounding).toContain('声音：开');
    app.sound.setMuted(true);
    const quiet = render(<TableRoom app={app} controller={controllerFor(model)} onExit={() => undefined} />);
    expect(quiet).toContain('声音：关');
    expectChinese(quiet);
    app.sound.setMuted(false);
    for (const over of [
      { connection: 'reconnecting' },
      { resyncing: true },
      { session: 'closed', closedReason: t('table.closed') },
    ] as Partial<TableScreenState>[]) {
      expectChinese(render(<TableRoom app={app} controller={controllerFor(model, over)} onExit={() => undefined} />));
    }
    const joining = render(
      <TableRoom
        app={app}
        controller={controllerFor(null as unknown as TableModel, { model: null })}
        onExit={() => undefined}
      />,
    );
    expect(joining).toContain('正在加入牌桌');
    expectChinese(joining);
  });

  it('engine-blind: the badge, the progress of each step, the audit, the show-or-muck turn, the banner', () => {
    const app = appState({ status: 'signed_in', me: ME });
    const models = tableModels();
    const html = (name: string): string => {
      const out = render(<TableRoom app={app} controller={controllerFor(models[name]!)} onExit={() => undefined} />);
      expectChinese(out);
      return out;
    };
    for (const name of ['blindKeys', 'blindKeysHero', 'blindShuffle', 'blindShuffleHero', 'blindCards']) {
      const out = html(name);
      expect(out, name).toContain('data-testid="engine-blind-badge"');
      expect(out, name).toContain('data-testid="blind-progress"');
      expect(out, name).toContain(models[name]!.dealing!.progress!.text);
    }
    expect(html('blindShuffle')).toContain('洗牌 1/2——等待bob');
    expect(html('blindAudit')).toContain('data-testid="blind-audit"');
    const showdown = html('blindShowdown');
    expect(showdown).toContain('data-testid="blind-show"');
    // The hero's cards, from the device.
    expect(showdown).toMatch(/data-testid="cards-2"[^]*data-card="Qh"[^]*data-card="Jc"/);
    const downgraded = html('blindDowngraded');
    expect(downgraded).toContain('data-testid="blind-downgraded"');
    expect(downgraded).not.toContain('data-testid="engine-blind-badge"');
    expect(html('blindVoided')).toContain('bob的洗牌未按时送达');
  });

  it('the chat panel: messages, dealer lines, the muted, the counter, a refusal, the host switches', () => {
    const model = tableModels().betting!;
    const controller = controllerFor(model, {
      chatError: new CommandRefusedError('c9', 'chat', { type: 'error', code: 'chat_rate_limited', message: 'x' }),
    });
    const st = controller.store.get();
    const html = render(
      <ChatPanel
        controller={controller}
        st={st}
        meId={ME.user.id}
        setting={{ enabled: false, spectators: true }}
        onSetting={() => undefined}
      />,
    );
    expect(html).toContain('data-testid="chat-host"');
    expect(html).toContain('data-testid="chat-dealer"');
    expect(html).toContain('data-testid="chat-error"');
    expect(html).toContain('从主池赢得 120');
    expect(html).toContain('从边池 1赢得 40（低牌）');
    expectChinese(html);
    expectChinese(
      render(
        <ChatPanel
          controller={controller}
          st={{ ...st, chat: [], dealer: [], muted: new Map() }}
          meId={null}
          setting={null}
        />,
      ),
    );
  });

  it('the action bar for every kind of decision', () => {
    for (const va of [
      validActions(),
      validActions({ fold: false, check: true, call: null, raise: null, bet: { min: 20, max: 1000 }, current_bet: 0 }),
      validActions({ raise: { min: 40, max: 40 }, all_in: null }),
      validActions({ fold: false, call: null, raise: null, bring_in: 1, complete: { min: 2, max: 2 }, all_in: null }),
      validActions({ call: 1000, stack: 1000, raise: null }),
      validActions({ fold: false, call: null, raise: null, all_in: null, discard: { max: 3 } }),
      validActions({ fold: false, call: null, raise: null, all_in: null, discard: { max: 1 } }),
    ]) {
      const html = render(
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
      expectChinese(html);
    }
  });

  it('the pre-actions before the turn, with nothing to call and facing a bet', () => {
    for (const spot of [
      { handId: HAND, street: 'flop', toCall: 0, callIsAllIn: false },
      { handId: HAND, street: 'flop', toCall: 40, callIsAllIn: false },
      { handId: HAND, street: 'flop', toCall: 120, callIsAllIn: true },
    ]) {
      const selected = { kind: 'call_any' as const, handId: HAND, street: 'flop', toCall: spot.toCall };
      const html = render(<PreActionBar spot={spot} selected={selected} onToggle={() => undefined} />);
      expect(html).toContain('过牌/弃牌');
      expect(html).toContain('跟任何注');
      expectChinese(html);
    }
  });

  it('fairness: verified, failed with every failure, pending, none', () => {
    const hands = [finished(passed), finished(failed, 'h2'), finished(null, 'h3')];
    for (const order of [hands, [hands[1]!, hands[0]!], [hands[2]!], []]) {
      expectChinese(render(<FairnessPanel open hands={order} onClose={() => undefined} />));
    }
  });

  it('hand history: the list, a voided hand, and replays of real hands of every game', () => {
    const app = appState({ status: 'signed_in', me: ME });
    expectChinese(render(<HistoryDrawer app={app} open onClose={() => undefined} tableId={TABLE} />));
    const voided: HandSummary = { ...PLAYED, hand_no: null, net: 0, voided_reason: 'checkpoint_lost' };
    for (const h of [PLAYED, voided, { ...voided, voided_reason: 'room_closed' }]) {
      expectChinese(render(<HistoryRow hand={h} busy={false} onOpen={() => undefined} />));
    }
    const details = engineDetails();
    expectChinese(
      render(<VoidedHand detail={{ ...details[0]!, voided_reason: 'unreadable' }} onBack={() => undefined} />),
    );
    // An engine-blind hand: no seed reveal, said in Chinese.
    const blind = render(<Replay detail={blindHandDetail()} onBack={() => undefined} />);
    expect(blind).toContain('引擎盲发牌：没有种子公开');
    expectChinese(blind);
    for (const detail of details) {
      expectChinese(render(<Replay detail={detail} onBack={() => undefined} />));
      // Every step's caption, not only the first one the replay shows.
      expectChineseText(
        ...buildReplay(detail).flatMap((f) => [f.caption, f.street, ...f.seats.map((s) => s.lastAction ?? '')]),
      );
    }
  });

  it('the wallet history: the page from the header, and a row of every kind', () => {
    const app = appState({ status: 'signed_in', me: ME });
    vi.stubGlobal('location', { hash: '#/wallet' });
    try {
      const page = render(<App app={app} />);
      expect(page).toContain('钱包记录');
      expect(page).toContain('href="#/wallet"');
      expectChinese(page);
    } finally {
      vi.stubGlobal('location', { hash: '#/' });
    }
    expectChinese(render(<WalletScreen app={app} balance={ME.wallet} />));
    const rows: WalletEntry[] = [...WALLET_ENTRY_KINDS, 'jackpot'].map((kind, i) => ({
      id: `e${i}`,
      at: '2026-12-01T10:00:00.000Z',
      kind,
      amount: i % 2 === 0 ? 1_500 : -1_500,
      balance: 12_500,
      room: i % 3 === 0 ? null : { session_id: ROOM.session_id, code: ROOM.code },
    }));
    const table = render(<WalletEntries entries={rows} />);
    expect(table).toContain('买入');
    expect(table).toContain('042817');
    expectChinese(table);
  });

  it('the session summary: figures, none won yet, and no hands', () => {
    for (const summary of [
      { hands: 3, net: -120, biggestPot: 480, counted: [] },
      { hands: 1, net: 20, biggestPot: 0, counted: [] },
      { hands: 0, net: 0, biggestPot: 0, counted: [] },
    ]) {
      const html = render(<SessionSummaryView summary={summary} />);
      expectChinese(html);
    }
    const dialog = render(
      <SessionSummaryDialog
        open
        summary={{ hands: 3, net: -120, biggestPot: 480, counted: [] }}
        onClose={() => undefined}
      />,
    );
    expect(dialog).toContain('赢得的最大底池');
    expectChinese(dialog);
  });

  it('toasts', () => {
    const app = appState({ status: 'signed_in', me: ME });
    app.toasts.show(t('lobby.seatedIn', { code: '042817' }));
    expectChinese(render(<ToastsView toasts={app.toasts} />));
  });
});

// ---- the sentence builders, over every code they know ----------------------------------------

describe('every sentence builder in Chinese', () => {
  it('every table, lobby and SDK error, and an unknown code named', () => {
    for (const code of ERROR_CODES) expectChineseText(tableErrorText({ code }));
    for (const reason of [
      'cannot_check',
      'cannot_fold',
      'raise_not_reopened',
      'no_opponent_can_answer',
      'bring_in_due',
      'raise_cap_reached',
    ]) {
      expectChineseText(tableErrorText({ code: 'illegal_action', reason }));
    }
    expectChineseText(tableErrorText({ code: 'invalid_amount', min: 40, max: 1200 }));
    for (const reason of ['chat_off', 'spectators_muted'])
      expectChineseText(tableErrorText({ code: 'chat_disabled', reason }));
    for (const code of LOBBY_ERROR_CODES) expectChineseText(lobbyErrorText(code));
    for (const code of Object.values(SdkErrorCode)) expectChineseText(errorText(new FeltSdkError(code, 'x')));
    expectChineseText(
      errorText(new CommandRefusedError('c1', 'action', { type: 'error', code: 'not_your_turn', message: 'x' })),
      errorText(new LobbyApiError(429, 'rate_limited', 'x', { retry_after_seconds: 3 })),
      errorText(new LobbyApiError(400, 'buy_in_out_of_range', 'x', { min: 40, max: 200 })),
      errorText(new TypeError('Failed to fetch')),
      errorText('weird'),
    );
    // A code from a newer server: a generic sentence in Chinese that names it.
    expect(lobbyErrorText('brand_new_code')).toBe('大厅拒绝了这个请求（brand_new_code）。请再试一次。');
    expect(tableErrorText({ code: 'brand_new_code' as never })).toContain('brand_new_code');
  });

  it('every hand name the engine writes', () => {
    const ranks = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'] as const;
    const suits = ['c', 'd', 'h', 's'] as const;
    const names = new Set<string>();
    // Every category at every rank: deterministic walks over the deck.
    for (let a = 0; a < 13; a++) {
      for (let b = 0; b < 13; b++) {
        const r = (i: number) => ranks[(a + i) % 13]!;
        const s = (i: number) => ranks[(b + i) % 13]!;
        const hands = [
          [`${r(0)}c`, `${r(0)}d`, `${r(0)}h`, `${r(0)}s`, `${s(1)}c`],
          [`${r(0)}c`, `${r(0)}d`, `${r(0)}h`, `${s(0)}s`, `${s(0)}c`],
          [`${r(0)}c`, `${r(0)}d`, `${s(0)}h`, `${s(0)}s`, `${r(5)}c`],
          [`${r(0)}c`, `${r(0)}d`, `${r(0)}h`, `${s(3)}s`, `${s(7)}c`],
          [`${r(0)}c`, `${r(0)}d`, `${s(3)}h`, `${s(5)}s`, `${s(9)}c`],
          [`${r(0)}h`, `${r(2)}h`, `${r(4)}h`, `${r(6)}h`, `${r(9)}h`],
          [`${r(0)}s`, `${r(1)}s`, `${r(2)}s`, `${r(3)}s`, `${r(4)}s`],
          [`${r(0)}c`, `${r(1)}d`, `${r(2)}h`, `${r(3)}s`, `${r(4)}c`],
          [`${r(0)}c`, `${r(2)}d`, `${r(4)}h`, `${r(6)}s`, `${r(9)}c`],
        ];
        for (const cards of hands) {
          if (new Set(cards).size !== 5) continue;
          try {
            names.add(describeHigh(cards as never).name);
            names.add(describeLowA5(cards as never).name);
            names.add(describeLow27(cards as never).name);
          } catch {
            // A walk that repeats a card: skip it.
          }
        }
      }
    }
    expect(names.size).toBeGreaterThan(200);
    for (const name of names) {
      const zh = handNameText(name);
      expect(zh, name).not.toBe(name);
      expectChineseText(zh);
    }
    // In English the catalog gives back the engine's own words.
    applyLocale('en');
    try {
      for (const name of names) expect(handNameText(name)).toBe(name);
    } finally {
      applyLocale('zh-CN');
    }
    void suits;
  });

  it('games, limits, stakes and streets', () => {
    for (const g of GAME_TYPES) {
      for (const l of BETTING_LIMITS) expectChineseText(gameName(g), gameTitle(g, l), gameShortTitle(g, l));
    }
    for (const st of ['preflop', 'flop', 'turn', 'river', 'third', 'fourth', 'fifth', 'sixth', 'seventh']) {
      expectChineseText(streetName(st));
    }
    for (const st of ['predraw', 'first_draw', 'second_draw', 'third_draw']) expectChineseText(streetName(st));
    const stakes = tableState().variant.stakes;
    for (const variant of [
      { game: 'holdem', limit: 'nl', stakes: { ...stakes, ante: 1 } },
      { game: 'holdem', limit: 'nl', stakes: { ...stakes, big_blind_ante: 20 } },
      { game: 'stud', limit: 'fl', stakes: { ...stakes, ante: 1, bring_in: 1 } },
      { game: 'shortdeck', limit: 'nl', stakes: { ...stakes, button_blind: 2, ante: 1 } },
      { game: 'holdem', limit: 'fl', stakes },
    ] as const) {
      expectChineseText(stakesText(variant));
    }
  });

  it('the room form: every message the lobby’s parser writes for it', () => {
    const forms: Partial<RoomForm>[] = [
      { seats: '11' },
      { seats: '1.5' },
      { seats: 'x' },
      { seats: '0' },
      { game: 'shortdeck', seats: '9' },
      { game: 'horse', seats: '9' },
      { stakes: { smallBlind: '30', bigBlind: '20' } },
      { stakes: { smallBlind: '0', bigBlind: '0' } },
      { stakes: { bigBlindAnte: '40', ante: '5' } },
      { stakes: { ante: '50', bigBlind: '2', smallBlind: '1' } },
      { stakes: { buttonBlind: '2' } },
      { stakes: { bringIn: '2' } },
      { game: 'stud', stakes: { bigBlind: '2', smallBlind: '1' } },
      { game: 'stud', stakes: { bringIn: '5', smallBet: '2' } },
      { game: 'stud', stakes: { bringIn: '0', smallBet: '0' } },
      { game: 'stud', stakes: { smallBet: '4', bigBet: '2' } },
      { game: 'shortdeck', stakes: { buttonBlind: '0', ante: '0' } },
      { game: 'holdem', limit: 'fl', stakes: { smallBet: '0' } },
      { stakes: { bigBlind: '4000000000000000' } },
      { buyInMin: '10' },
      { buyInMax: '100000' },
      { buyInMin: '300', buyInMax: '200' },
      { actionSeconds: '10', warningSeconds: '20' },
      { rakeCap: '5' },
      { rakePercent: '11' },
      { rakePercent: '1.234' },
      { botFill: true, botTarget: '6', seats: '6' },
      { botFill: true, botTarget: '9', seats: '6' },
      { sitBuyIn: '1' },
      { sitBuyIn: '1.5' },
      { dealing: 'engine_blind' },
      { dealing: 'engine_blind', practiceChips: true, botFill: true },
      { dealing: 'engine_blind', practiceChips: true, game: 'stud' },
    ];
    let messages = 0;
    for (const over of forms) {
      for (const [path, text] of checkRoomForm({ ...EMPTY_ROOM_FORM, ...over }).issues) {
        messages++;
        expect(text, `${path} ${JSON.stringify(over)}`).not.toBe(t('room.issue.other'));
        expectChineseText(text);
      }
    }
    expect(messages).toBeGreaterThan(25);
    for (const exact of [
      'the open-pair rule applies only to Stud and Stud Hi-Lo under fixed limit',
      'the half-bet rule applies only to fixed limit',
      'a rotation applies only to horse and 8game',
      'comes to 9007199254740992 chips, above the 9007199254740991 chips a stored amount can hold; lower the stakes',
      '7 seats exceeds the 6-seat cap of stud in the rotation',
    ]) {
      expect(roomIssueText(exact), exact).not.toBe(t('room.issue.other'));
      expectChineseText(roomIssueText(exact));
    }
    // Engine-blind dealing's disclosure, with the games it deals by name.
    expectChineseText(
      t('room.dealingBlindHint', {
        games: BLIND_DEALING_GAMES.map((g) => gameName(g)).join(t('common.listSeparator')),
      }),
    );
    // A message no rule knows is not shown in English to a Chinese page.
    expect(roomIssueText('something new from a newer lobby')).toBe(t('room.issue.other'));
  });

  it('voided hands and the table model’s sentences', () => {
    for (const reason of ['checkpoint_lost', 'room_closed', 'unreadable', 'engine_blind_failed'])
      expectChineseText(voidedText({ voided_reason: reason })!);
    for (const model of Object.values(tableModels())) {
      expectChineseText(
        model.game.title,
        model.game.room,
        model.game.stakes,
        model.street,
        model.notice ?? '',
        ...model.log.map((l) => l.text),
        ...model.seats.flatMap((s) => [s.statusLabel ?? '', s.lastAction ?? '', ...s.handNames]),
        ...model.pots.map((p) => p.label),
        ...(model.showdown?.pots.flatMap((p) => [p.label, ...p.winners.map((w) => w.handName ?? '')]) ?? []),
        model.voidedText ?? '',
        model.dealing?.progress?.text ?? '',
        model.dealing?.downgraded?.text ?? '',
        model.dealing?.audit ?? '',
      );
    }
  });
});
