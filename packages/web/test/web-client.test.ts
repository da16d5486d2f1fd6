// The web client in a real Chromium against a real cluster (issue 9): built services as processes,
// a fresh database, a random Redis prefix, and the built client served from the page's origin with
// /api on the same origin. Every step goes through the UI a player uses.
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page, WebSocket as PwWebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchChromium, PHONE, screenshot, smallText, TABLET } from './support/browser.js';
import { startWebCluster, type WebCluster } from './support/web-cluster.js';

const PASSWORD = 'correct horse battery';

let env: WebCluster;
let browser: Browser;
const contexts: BrowserContext[] = [];

/** Everything a page received over its WebSockets, parsed. */
type Frames = Record<string, unknown>[];

function recordFrames(page: Page): Frames {
  const frames: Frames = [];
  page.on('websocket', (ws: PwWebSocket) => {
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string') return;
      try {
        frames.push(JSON.parse(payload) as Record<string, unknown>);
      } catch {
        // Not a protocol frame.
      }
    });
  });
  return frames;
}

async function newPage(options: Parameters<Browser['newContext']>[0]): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  // Counts chips-in-flight elements, to check prefers-reduced-motion end to end.
  await context.addInitScript(() => {
    const w = window as unknown as { __flights: number };
    w.__flights = 0;
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of Array.from(r.addedNodes)) {
          if (n instanceof HTMLElement && n.classList.contains('chip--flight')) w.__flights++;
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return context.newPage();
}

const uniqueName = (prefix: string): string => `${prefix}${randomBytes(3).toString('hex')}`;

async function signUp(page: Page, name: string): Promise<void> {
  await page.goto(`${env.origin}/`);
  await page.getByRole('tab', { name: 'Sign up' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Lobby' }).waitFor();
  expect(await page.getByTestId('me-name').textContent()).toBe(name);
}

async function createRoom(page: Page, game: string): Promise<{ tableId: string; code: string }> {
  await page.getByRole('button', { name: 'Create a room' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a room' });
  await dialog.getByLabel('Game', { exact: true }).selectOption({ label: game });
  await dialog.getByRole('button', { name: 'Create room' }).click();
  await page.waitForURL(/#\/table\/[0-9a-f-]+$/);
  const tableId = /#\/table\/([0-9a-f-]+)$/.exec(page.url())![1]!;
  const table = page.getByTestId('table');
  await table.waitFor();
  const code = (await page.locator('.table-bar__sub .mono').textContent())!.trim();
  expect(code).toMatch(/^\d{6}$/);
  return { tableId, code };
}

async function joinByCode(page: Page, code: string, buyIn: number): Promise<void> {
  await page.goto(`${env.origin}/#/`);
  const form = page.getByRole('region', { name: 'Join by code' });
  await form.getByLabel('Room code').fill(code);
  await form.getByLabel('Buy-in').fill(String(buyIn));
  await form.getByRole('button', { name: 'Join room' }).click();
  await page.waitForURL(/#\/table\/[0-9a-f-]+$/);
  await page.getByTestId('table').waitFor();
}

/** The hand id the page shows, once a hand is on. */
async function handId(page: Page): Promise<string> {
  return (await page.getByTestId('table').getAttribute('data-hand-id')) ?? '';
}

async function myTurn(page: Page): Promise<boolean> {
  return page.getByTestId('action-bar').isVisible();
}

/** Identifies the hero's current turn (the table_seq it came with), or null when it is not theirs. */
async function turnId(page: Page): Promise<string | null> {
  return page
    .getByTestId('action-bar')
    .getAttribute('data-turn', { timeout: 1_000 })
    .catch(() => null);
}

/** Waits until the turn `turn` is over: the bar is gone or shows a later turn (the same player can act next). */
async function turnOver(page: Page, turn: string | null): Promise<void> {
  await waitUntil('the action to be taken', async () => (await turnId(page)) !== turn);
}

/** Checks when it is free, calls otherwise: a hand between two such players goes to showdown. */
async function passiveAction(page: Page): Promise<void> {
  const turn = await turnId(page);
  if (turn === null) return;
  const bar = page.getByTestId('action-bar');
  const check = bar.getByRole('button', { name: /^Check/ });
  if (await check.isVisible()) await check.click();
  else await bar.getByRole('button', { name: /^Call/ }).click();
  await turnOver(page, turn);
}

async function handPhase(page: Page): Promise<string> {
  return (await page.getByTestId('table').getAttribute('data-phase')) ?? '';
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Plays the current hand between `players` to its end, passively, and returns its id. */
async function playHandToEnd(players: Page[]): Promise<string> {
  await waitUntil(
    'a hand to start',
    async () => (await handId(players[0]!)) !== '' && (await handPhase(players[0]!)) !== 'waiting',
    60_000,
  );
  const id = await handId(players[0]!);
  await waitUntil(
    'the hand to end',
    async () => {
      for (const p of players) {
        if ((await handPhase(p)) === 'complete' && (await handId(p)) === id) continue;
        if (await myTurn(p)) await passiveAction(p);
      }
      const done = await Promise.all(
        players.map(async (p) => (await handPhase(p)) === 'complete' && (await handId(p)) === id),
      );
      return done.every(Boolean);
    },
    90_000,
  );
  return id;
}

/** Waits for the next hand after `previous` to reach someone's turn. */
async function nextHand(page: Page, previous: string): Promise<string> {
  await waitUntil(
    'the next hand',
    async () => {
      const id = await handId(page);
      return id !== '' && id !== previous && (await handPhase(page)) === 'betting';
    },
    60_000,
  );
  return handId(page);
}

beforeAll(async () => {
  env = await startWebCluster({ FELT_HAND_PAUSE_MS: '2500', FELT_BOT_THINK_MS: '200' });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await env?.stop();
});

describe('the web client in Chromium', () => {
  let alice: Page;
  let aliceFrames: Frames;
  let bob: Page;
  let bobFrames: Frames;
  let table: { tableId: string; code: string };
  let firstHand = '';

  it("two players sign up, create and join a room, and play a Hold'em hand to showdown", async () => {
    alice = await newPage(DESKTOP);
    aliceFrames = recordFrames(alice);
    bob = await newPage({ ...PHONE, reducedMotion: 'reduce' });
    bobFrames = recordFrames(bob);
    await signUp(alice, uniqueName('alice'));
    await signUp(bob, uniqueName('bob'));
    await screenshot(alice, 'lobby-desktop');
    await screenshot(bob, 'lobby-phone');

    table = await createRoom(alice, "Hold'em");
    await joinByCode(bob, table.code, 200);

    firstHand = await playHandToEnd([alice, bob]);
    for (const p of [alice, bob]) {
      const showdown = p.getByTestId('showdown');
      await showdown.waitFor();
      expect(await showdown.getByTestId('winner').count()).toBeGreaterThan(0);
      // Both players checked and called down: five board cards and both hands turned up.
      expect(await p.getByTestId('board').locator('[data-card]:not([data-card="hidden"])').count()).toBe(5);
      // The winner's hand is turned up; a loser may muck (reference 000).
      expect(await showdown.getByTestId('shown-hand').count()).toBeGreaterThanOrEqual(1);
    }
    await screenshot(alice, 'showdown-desktop');
    await screenshot(bob, 'showdown-phone');

    // Bob never received Alice's hole cards before the showdown turned them up.
    const aliceSeat = Number(await alice.locator('.seat--hero').getAttribute('data-seat'));
    const early = bobFrames.filter((f) => f.type === 'hole_cards_dealt' && f.seat === aliceSeat);
    expect(early).toEqual([]);
  });

  it('the fairness badge turns green when the SDK verifier passes, and the panel shows the seeds', async () => {
    for (const p of [alice, bob]) {
      const badge = p.getByTestId('fairness-badge');
      await waitUntil(
        'the fairness verdict',
        async () => (await badge.getAttribute('data-status')) !== 'pending',
        20_000,
      );
      expect(await badge.getAttribute('data-status')).toBe('verified');
      expect(await badge.getAttribute('data-hand-id')).toBe(firstHand);
    }
    await alice.getByTestId('fairness-badge').click();
    const panel = alice.getByRole('dialog', { name: 'Fairness' });
    await expect.poll(() => panel.getByTestId('fairness-verdict').textContent()).toContain('checks out');
    expect(await panel.getByTestId('dealt-cards').locator('li').count()).toBeGreaterThanOrEqual(9);
    expect(await panel.locator('code.hex').first().textContent()).toMatch(/^sha256:[0-9a-f]{64}$/);
    await screenshot(alice, 'fairness-desktop');
    await panel.getByRole('button', { name: 'Close' }).click();
  });

  it('respects prefers-reduced-motion: chips fly for one player and not for the other', async () => {
    const flights = (p: Page) => p.evaluate(() => (window as unknown as { __flights: number }).__flights);
    expect(await flights(alice)).toBeGreaterThan(0);
    expect(await flights(bob)).toBe(0);
  });

  it('a spectator sees no hole cards, on screen or on the wire', async () => {
    const carol = await newPage(TABLET);
    const frames = recordFrames(carol);
    await signUp(carol, uniqueName('carol'));
    await carol.goto(`${env.origin}/#/watch/${table.tableId}`);
    await carol.getByTestId('table').waitFor();
    expect(await carol.getByTestId('table').getAttribute('data-role')).toBe('spectator');
    const hand = await nextHand(carol, firstHand);
    // Mid-hand: every card on the seats is face down and there is no action bar.
    const cards = carol.locator('[data-testid^="cards-"] [data-card]');
    expect(await cards.count()).toBe(4);
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-card')))).toEqual([
      'hidden',
      'hidden',
      'hidden',
      'hidden',
    ]);
    expect(await carol.getByTestId('action-bar').count()).toBe(0);
    await screenshot(carol, 'spectator-tablet');
    // Finish the hand; until it is shown down nothing private reached the spectator's socket.
    await playHandToEnd([alice, bob]);
    const before = frames.filter(
      (f) =>
        !(f.type === 'showdown' || f.type === 'hand_result' || f.type === 'cards_shown' || f.type === 'seed_reveal'),
    );
    expect(before.some((f) => f.type === 'hole_cards_dealt' || f.type === 'your_turn')).toBe(false);
    for (const f of before) {
      const snap = (f.type === 'resync_response' ? f.snapshot : f) as {
        type?: string;
        hand_id?: string;
        phase?: string;
        hero?: unknown;
        seats?: { cards?: (string | null)[] }[];
      };
      if (snap.type !== 'table_state') continue;
      expect(snap.hero).toBeUndefined();
      if (snap.hand_id === hand && snap.phase !== 'complete' && snap.phase !== 'showdown') {
        for (const s of snap.seats ?? []) expect((s.cards ?? []).every((c) => c === null)).toBe(true);
      }
    }
    expect(await smallText(carol)).toEqual([]);
  });

  it('a reload in the middle of a hand restores the same state and, on your turn, the same clock', async () => {
    const previous = await handId(alice);
    await nextHand(alice, previous);
    // Get the turn to Alice (Bob plays passively when it is his).
    await waitUntil('Alice to act', async () => {
      if (await myTurn(bob)) await passiveAction(bob);
      return myTurn(alice);
    });
    const shown = async () => ({
      hand: await alice.getByTestId('table').getAttribute('data-hand-id'),
      deadline: await alice.getByTestId('clock').getAttribute('data-deadline'),
      bank: await alice.getByTestId('clock').getAttribute('data-time-bank'),
      turn: await alice.getByTestId('action-bar').locator('button').allTextContents(),
      seats: await alice.locator('.seat').evaluateAll((els) =>
        els.map((e) => ({
          seat: e.getAttribute('data-seat'),
          text: e.querySelector('.seat__plate')?.textContent,
          cards: Array.from(e.querySelectorAll('[data-card]')).map((c) => c.getAttribute('data-card')),
        })),
      ),
      board: await alice
        .getByTestId('board')
        .locator('[data-card]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-card'))),
      pot: await alice.getByTestId('pot-total').textContent(),
    });
    const before = await shown();
    expect(before.seats.find((x) => x.cards.length > 0 && x.cards.every((c) => c !== 'hidden'))).toBeDefined();
    const snapshotsBefore = aliceFrames.length;
    await alice.reload();
    await alice.getByTestId('action-bar').waitFor();
    expect(await shown()).toEqual(before);
    // On the wire: the snapshot after the reload is the one before it, bar the watermarks and the hash.
    const snapshots = (from: number, to: number) =>
      aliceFrames
        .slice(from, to)
        .map((f) => (f.type === 'resync_response' ? (f.snapshot as Record<string, unknown>) : f))
        .filter((f) => f.type === 'table_state')
        .map(({ ts: _ts, table_seq: _seq, hand_seq: _hs, prev_table_seq: _prev, state_hash: _h, ...rest }) => rest);
    const last = snapshots(0, snapshotsBefore).at(-1);
    const restored = snapshots(snapshotsBefore, aliceFrames.length);
    expect(restored.length).toBeGreaterThan(0);
    for (const r of restored) expect(r).toEqual(last);
    expect((last?.hero as { turn_token?: string } | undefined)?.turn_token).toMatch(/\w{16,}/);
    expect(await alice.getByTestId('connection').getAttribute('data-state')).toBe('live');
    await screenshot(alice, 'table-desktop');
    await screenshot(bob, 'table-phone');
  });

  it('plays by keyboard, and asks before going all-in', async () => {
    expect(await myTurn(alice)).toBe(true);
    await alice.keyboard.press('a');
    const confirm = alice.getByRole('dialog', { name: 'Go all-in?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await myTurn(alice)).toBe(true);
    const turn = await turnId(alice);
    await alice.keyboard.press('c');
    await turnOver(alice, turn);
    await playHandToEnd([alice, bob]);
  });

  it('keeps the text at 11 px or more on desktop and phone', async () => {
    expect(await smallText(alice)).toEqual([]);
    expect(await smallText(bob)).toEqual([]);
    await bob.goto(`${env.origin}/#/`);
    await bob.getByRole('heading', { name: 'Lobby' }).waitFor();
    expect(await smallText(bob)).toEqual([]);
    await bob.goto(`${env.origin}/#/table/${table.tableId}`);
    await bob.getByTestId('table').waitFor();
  });

  it('lists finished hands in the history drawer and replays one', async () => {
    await alice.getByRole('button', { name: 'History' }).click();
    const drawer = alice.getByRole('dialog', { name: 'Hand history' });
    const rows = drawer.getByTestId('history-list').locator('button');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await alice.locator(`[data-hand-id="${firstHand}"]`).click();
    const replay = alice.getByRole('dialog', { name: 'Replay' }).getByTestId('replay');
    await replay.waitFor();
    expect(await replay.getByTestId('replay-caption').textContent()).toContain('Before the deal');
    await replay.getByRole('button', { name: 'Last step' }).click();
    expect(await replay.getByTestId('replay-caption').textContent()).toContain('Hand over');
    await screenshot(alice, 'history-desktop');
    await alice.getByRole('dialog', { name: 'Replay' }).getByRole('button', { name: 'Close' }).click();
  });

  it('leaves the table and gets the chips back', async () => {
    for (const p of [alice, bob]) {
      await p.getByRole('button', { name: 'Leave' }).click();
      await p.getByRole('dialog', { name: 'Leave this table?' }).getByRole('button', { name: 'Leave' }).click();
      await p.getByRole('heading', { name: 'Lobby' }).waitFor();
    }
  });

  it('a Stud hand renders its up and down cards and no board', async () => {
    const stud = await createRoom(alice, 'Seven Card Stud');
    await joinByCode(bob, stud.code, 200);
    await waitUntil('a Stud hand', async () => (await handPhase(alice)) === 'betting', 60_000);
    expect(await alice.getByTestId('table').getAttribute('data-family')).toBe('stud');
    expect(await alice.getByTestId('board').count()).toBe(0);
    const heroSeat = await alice.locator('.seat--hero').getAttribute('data-seat');
    const mine = await alice
      .locator(`[data-testid="cards-${heroSeat}"] [data-card]`)
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-card'), e.getAttribute('data-up')]));
    // Third street: two down cards and one up card, all visible to their owner.
    expect(mine.map(([, up]) => up)).toEqual(['false', 'false', 'true']);
    expect(mine.every(([c]) => c !== 'hidden')).toBe(true);
    const theirs = await alice
      .locator(`.seat:not(.seat--hero):not(.seat--empty) [data-card]`)
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-card'), e.getAttribute('data-up')]));
    expect(theirs.map(([c, up]) => (up === 'true' ? 'up' : c))).toEqual(['hidden', 'hidden', 'up']);
    expect(theirs[2]![0]).toMatch(/^[2-9TJQKA][cdhs]$/);
    await screenshot(alice, 'stud-desktop');
    await screenshot(bob, 'stud-phone');
  });
});
