// The web client in a real Chromium against a real cluster (issue 9): built services as processes,
// a fresh database, a random Redis prefix, and the built client served from the page's origin with
// /api on the same origin. Every step goes through the UI a player uses.
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page, WebSocket as PwWebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
  const pat = bar.getByRole('button', { name: /^Stand pat/ });
  const check = bar.getByRole('button', { name: /^Check/ });
  if (await pat.isVisible()) await pat.click();
  else if (await check.isVisible()) await check.click();
  else await bar.getByRole('button', { name: /^Call/ }).click();
  await turnOver(page, turn);
}

async function leaveTable(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Table tools' }).getByRole('button', { name: 'Leave' }).click();
  await page.getByRole('dialog', { name: 'Leave this table?' }).getByRole('button', { name: 'Leave' }).click();
  await page.getByRole('heading', { name: 'Lobby' }).waitFor();
}

async function handPhase(page: Page): Promise<string> {
  return (await page.getByTestId('table').getAttribute('data-phase')) ?? '';
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 100 },
  );
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

/** What the page shows, for failure messages. */
async function describe_(page: Page): Promise<string> {
  const table = page.getByTestId('table');
  const seats = await page
    .locator('.seat')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')).join(' | '));
  return `phase=${await table.getAttribute('data-phase')} hand=${await table.getAttribute('data-hand-id')} seats: ${seats} status: ${await page
    .getByTestId('hero-status')
    .textContent({ timeout: 500 })
    .catch(() => '-')}`;
}

/** Waits for the next hand after `previous` to reach someone's turn. */
async function nextHand(page: Page, previous: string): Promise<string> {
  try {
    await waitUntil(
      'the next hand',
      async () => {
        const id = await handId(page);
        return id !== '' && id !== previous && (await handPhase(page)) === 'betting';
      },
      60_000,
    );
  } catch (err) {
    await screenshot(page, 'failure-next-hand');
    throw new Error(`${(err as Error).message}; the page shows ${await describe_(page)}`, { cause: err });
  }
  return handId(page);
}

beforeAll(async () => {
  env = await startWebCluster({ FELT_HAND_PAUSE_MS: '4000' });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await env?.stop();
});

describe('the web client in Chromium', () => {
  let alice: Page;
  let aliceName: string;
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
    aliceName = uniqueName('alice');
    await signUp(alice, aliceName);
    await signUp(bob, uniqueName('bob'));

    table = await createRoom(alice, "Hold'em");
    // Bob's lobby picks the new table up by itself.
    await bob.locator(`tr[data-room="${table.code}"]`).waitFor({ timeout: 15_000 });
    expect(await bob.locator(`tr[data-room="${table.code}"]`).textContent()).toContain('1/6');
    await screenshot(bob, 'lobby-phone');
    await joinByCode(bob, table.code, 200);

    // The result shows during the pause between hands: check it (and photograph it) as it appears.
    const result = async (p: Page, name: string) => {
      const showdown = p.getByTestId('showdown');
      await showdown.waitFor({ timeout: 120_000 });
      const winners = await showdown.getByTestId('winner').count();
      // Both players checked and called down: five board cards; the winner's hand is turned up (a loser may muck).
      const board = await p.getByTestId('board').locator('[data-card]:not([data-card="hidden"])').count();
      const shown = await showdown.getByTestId('shown-hand').count();
      await screenshot(p, name);
      return { winners, board, shown };
    };
    const results = Promise.all([result(alice, 'showdown-desktop'), result(bob, 'showdown-phone')]);
    // Awaited below; this only keeps an early failure from being reported twice.
    results.catch(() => undefined);
    firstHand = await playHandToEnd([alice, bob]);
    for (const r of await results) {
      expect(r.winners).toBeGreaterThan(0);
      expect(r.board).toBe(5);
      expect(r.shown).toBeGreaterThanOrEqual(1);
    }

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
    const row = carol.locator(`tr[data-room="${table.code}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('2/6');
    await screenshot(carol, 'lobby-tablet');
    await row.getByRole('link', { name: `Watch room ${table.code}` }).click();
    await carol.waitForURL(`**/#/watch/${table.tableId}`);
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

  it('shows the reconnect indicator when its gateway dies, then resyncs to the same turn', async () => {
    const previous = await handId(alice);
    await nextHand(alice, previous);
    await waitUntil('Alice to act', async () => {
      if (await myTurn(bob)) await passiveAction(bob);
      return myTurn(alice);
    });
    const hand = await handId(alice);
    const deadline = await alice.getByTestId('clock').getAttribute('data-deadline');
    const framesBefore = aliceFrames.length;
    // Record every state the indicator goes through.
    for (const p of [alice, bob]) {
      await p.evaluate(() => {
        const w = window as unknown as { __conn: string[] };
        w.__conn = [];
        new MutationObserver(() => {
          const state = document.querySelector('[data-testid="connection"]')?.getAttribute('data-state');
          if (state === undefined || state === null) return;
          // Nobody may act on a state that is not current: no action bar unless live.
          const entry =
            state !== 'live' && document.querySelector('[data-testid="action-bar"]') !== null
              ? `${state}+actions`
              : state;
          if (w.__conn.at(-1) !== entry) w.__conn.push(entry);
        }).observe(document.body, {
          subtree: true,
          attributes: true,
          attributeFilter: ['data-state'],
          childList: true,
        });
      });
    }
    await env.killFirstGateway();
    for (const p of [alice, bob]) {
      await waitUntil(
        'live again',
        async () => (await p.getByTestId('connection').getAttribute('data-state')) === 'live',
        45_000,
      );
    }
    await alice.getByTestId('action-bar').waitFor();
    expect(await handId(alice)).toBe(hand);
    expect(await alice.getByTestId('clock').getAttribute('data-deadline')).toBe(deadline);
    for (const p of [alice, bob]) {
      const seen = await p.evaluate(() => (window as unknown as { __conn: string[] }).__conn);
      expect(seen[0]).toBe('reconnecting');
      expect(seen.at(-1)).toBe('live');
      expect(seen.filter((x) => x.endsWith('+actions'))).toEqual([]);
    }
    // The SDK resynced after the reconnect, and the snapshot it installed is whole (its hash checked).
    expect(aliceFrames.slice(framesBefore).some((f) => f.type === 'resync_response')).toBe(true);
    await playHandToEnd([alice, bob]);
  });

  it('keeps the text at 11 px or more on desktop and phone', async () => {
    const overflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await smallText(alice)).toEqual([]);
    expect(await smallText(bob)).toEqual([]);
    expect(await overflow(bob)).toBeLessThanOrEqual(0);
    await bob.goto(`${env.origin}/#/`);
    await bob.getByRole('heading', { name: 'Lobby' }).waitFor();
    expect(await smallText(bob)).toEqual([]);
    expect(await overflow(bob)).toBeLessThanOrEqual(0);
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

  it('sits out and back in, and tops up between hands', async () => {
    const tools = (p: Page) => p.getByRole('navigation', { name: 'Table tools' });
    const aliceSeat = await alice.locator('.seat--hero').getAttribute('data-seat');
    await tools(alice).getByRole('button', { name: 'Sit out' }).click();
    await alice.getByRole('status').filter({ hasText: 'You will sit out from the next hand.' }).waitFor();
    await playHandToEnd([alice, bob]);
    const badge = (p: Page) => p.locator(`[data-seat="${aliceSeat}"] .badge`);
    await waitUntil(
      'Alice to be sitting out',
      async () =>
        (await badge(bob)
          .textContent()
          .catch(() => null)) === 'Sitting out',
    );
    expect(await badge(alice).textContent()).toBe('Sitting out');
    expect(await tools(alice).getByRole('button', { name: 'Sit in' }).count()).toBe(1);

    // Nobody is dealt a hand meanwhile: top up whoever is below the maximum of 200.
    const stackOf = async (p: Page) =>
      Number((await p.locator('.seat--hero [data-testid^="stack-"]').textContent())!.replace(/,/g, ''));
    const poorer = (await stackOf(alice)) < (await stackOf(bob)) ? alice : bob;
    const before = await stackOf(poorer);
    await tools(poorer)
      .getByRole('button', { name: /^(Top up|Rebuy)$/ })
      .click();
    const dialog = poorer.getByRole('dialog', { name: /^(Top up|Rebuy)$/ });
    const add = dialog.getByRole('button', { name: 'Add chips' });
    if (before >= 200) {
      expect(await add.isDisabled()).toBe(true);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    } else {
      expect(await dialog.getByLabel('Chips to add').inputValue()).toBe(String(200 - before));
      const wallet = async () => Number((await poorer.getByTestId('wallet').textContent())!.replace(/,/g, ''));
      const walletBefore = await wallet();
      await add.click();
      await poorer
        .getByRole('status')
        .filter({ hasText: `${200 - before} chips` })
        .waitFor();
      // The lobby moved the chips out of the wallet.
      await waitUntil('the wallet to pay', async () => (await wallet()) === walletBefore - (200 - before));
    }

    await tools(alice).getByRole('button', { name: 'Sit in' }).click();
    await alice.getByRole('status').filter({ hasText: 'You will be dealt in from the next hand.' }).waitFor();
    await waitUntil('Alice to be back', async () => (await badge(bob).count()) === 0, 20_000);
    // The next hand deals her in.
    const last = await handId(alice);
    await nextHand(alice, last);
    expect(await alice.locator('.seat--hero [data-card]').count()).toBe(2);
  });

  it('leaves the table and gets the chips back', async () => {
    for (const p of [alice, bob]) {
      await leaveTable(p);
      await p
        .getByRole('status')
        .filter({ hasText: /chips (went|then go) back to your wallet/ })
        .first()
        .waitFor();
    }
    await screenshot(alice, 'lobby-desktop');
  });

  it('a Stud hand renders its up and down cards and no board', async () => {
    const stud = await createRoom(alice, 'Seven Card Stud');
    // Bob takes the seat from the lobby's list this time.
    const row = bob.locator(`tr[data-room="${stud.code}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole('button', { name: /^Join / }).click();
    const join = bob.getByRole('dialog', { name: /^Join / });
    await join.getByLabel('Buy-in').fill('200');
    await join.getByRole('button', { name: 'Take a seat' }).click();
    await bob.getByTestId('table').waitFor();
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

  it('a draw game lets players choose their discards', async () => {
    await leaveTable(alice);
    await leaveTable(bob);
    await createRoom(alice, '2-7 Triple Draw');
    // Bob finds it with quick join.
    const quick = bob.getByRole('region', { name: 'Quick join' });
    await quick.getByLabel('Game').selectOption({ label: '2-7 Triple Draw' });
    await quick.getByRole('button', { name: 'Find me a seat' }).click();
    await bob.getByTestId('table').waitFor();
    expect(await bob.getByRole('heading', { level: 1 }).textContent()).toBe('Fixed-Limit 2-7 Triple Draw');
    const heroSeat = async () => alice.locator('.seat--hero').getAttribute('data-seat');
    // Bob stands pat and checks or calls; Alice plays until her first draw.
    await waitUntil(
      'Alice to draw',
      async () => {
        if (await myTurn(bob)) await passiveAction(bob);
        if (!(await myTurn(alice))) return false;
        if (
          await alice
            .getByTestId('action-bar')
            .getByRole('button', { name: /^Stand pat/ })
            .isVisible()
        )
          return true;
        await passiveAction(alice);
        return false;
      },
      90_000,
    );
    const cardsOf = async () =>
      alice
        .locator(`[data-testid="cards-${await heroSeat()}"] [data-card]`)
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-card')!));
    const before = await cardsOf();
    expect(before).toHaveLength(5);
    const first = alice.locator(`[data-testid="cards-${await heroSeat()}"] button[aria-pressed]`).first();
    await first.click();
    expect(await first.getAttribute('aria-pressed')).toBe('true');
    const turn = await turnId(alice);
    await alice
      .getByTestId('action-bar')
      .getByRole('button', { name: /^Draw 1/ })
      .click();
    await turnOver(alice, turn);
    await waitUntil('the replacement card', async () => !(await cardsOf()).includes(before[0]!));
    const after = await cardsOf();
    expect(after).toHaveLength(5);
    expect(after.filter((c) => before.includes(c))).toHaveLength(4);
    await screenshot(alice, 'draw-desktop');
  });

  it('labels the current and the next game of a mix', async () => {
    await leaveTable(alice);
    await createRoom(alice, 'HORSE');
    const rotation = alice.getByTestId('rotation');
    await expect.poll(() => rotation.textContent()).toContain("Now: FL Hold'em");
    expect(await rotation.textContent()).toContain('Next: FL Omaha Hi-Lo');
    await leaveTable(alice);
  });

  it('logs out and back in', async () => {
    await alice.getByRole('button', { name: 'Log out' }).click();
    await alice.getByRole('tab', { name: 'Log in' }).click();
    // Logged out for real: the lobby refuses the old cookie.
    expect(await alice.evaluate(async () => (await fetch('/api/me')).status)).toBe(401);
    await alice.getByLabel('Name').fill(aliceName);
    await alice.getByLabel('Password').fill('wrong password');
    await alice.getByRole('button', { name: 'Log in' }).click();
    await alice.getByRole('alert').filter({ hasText: 'That name and password do not match.' }).waitFor();
    await alice.getByLabel('Password').fill(PASSWORD);
    await alice.getByRole('button', { name: 'Log in' }).click();
    await alice.getByRole('heading', { name: 'Lobby' }).waitFor();
    expect(await alice.getByTestId('me-name').textContent()).toBe(aliceName);
    // The same account: the wallet shown is the lobby's (refunds of the leaves above may still land).
    const lobbyWallet = () =>
      alice.evaluate(async () =>
        ((await (await fetch('/api/me')).json()) as { wallet: number }).wallet.toLocaleString('en-US'),
      );
    await expect
      .poll(async () => (await alice.getByTestId('wallet').textContent()) === (await lobbyWallet()))
      .toBe(true);
  });
});
