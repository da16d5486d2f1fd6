// Multi-tabling in Chromium against a real cluster (docs/web-client.md, "Several tables"): one player
// sits at four heads-up tables against bots and opens them one by one from the lobby into one page
// (one WebSocket). Every table that waits for her is outlined; the keyboard acts only on the table in
// focus while the others stay exactly as they were; the tiles and the layout survive a reload; and on
// a phone one table shows at a time and a swipe moves to the next.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PHONE, screenshot, smallText } from './support/browser.js';
import { newPage, PASSWORD, signUp, uniqueName, waitUntil, webSuite } from './support/web-suite.js';

// Bots answer quickly and hands follow each other fast; the player's own clock is long, so a table
// waits for her decision for the whole test.
const suite = webSuite({ FELT_BOT_THINK_MS: '100', FELT_HAND_PAUSE_MS: '1000' });

const ROOM = {
  config: { botFill: { mode: 'fill', targetPlayers: 2 }, clock: { actionSeconds: 300 } },
  sit: { buy_in: 200 },
};

const tiles = (p: Page): Locator => p.getByTestId('tile');
const tile = (p: Page, id: string): Locator => p.locator(`[data-testid="tile"][data-table-id="${id}"]`);
const waitingTiles = (p: Page): Locator => p.locator('[data-testid="tile"][data-needs-action="true"]');

async function tileIds(p: Page): Promise<string[]> {
  return tiles(p).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.tableId ?? ''));
}

async function focusIndex(p: Page): Promise<number> {
  return Number(await p.getByTestId('deck').getAttribute('data-focus'));
}

/** What a tile shows: its snapshot's hash and the hero's pending turn (null when none). */
async function tileState(p: Page, id: string): Promise<{ hash: string | null; turn: string | null }> {
  const t = tile(p, id);
  return {
    hash: await t.getByTestId('table').getAttribute('data-state-hash'),
    turn: await t
      .getByTestId('action-bar')
      .getAttribute('data-turn', { timeout: 300 })
      .catch(() => null),
  };
}

/** The id of the tile in focus once its shortcuts are live and it waits for a decision. */
async function focusedWaiting(p: Page): Promise<string> {
  const focused = p.locator(
    '[data-testid="tile"][data-focused="true"][data-keys="on"][data-needs-action="true"] [data-testid="action-bar"]',
  );
  await focused.waitFor({ timeout: 60_000 });
  return (await p.locator('[data-testid="tile"][data-focused="true"]').getAttribute('data-table-id'))!;
}

/** Presses C (check or call) for the focused table and waits until its turn is over. */
async function checkOrCallByKey(p: Page, id: string): Promise<void> {
  const before = await tileState(p, id);
  expect(before.turn).not.toBeNull();
  await p.keyboard.press('c');
  // A call that would put the whole stack in asks first: still this table's decision.
  await tile(p, id)
    .getByTestId('confirm-all-in')
    .click({ timeout: 500 })
    .catch(() => undefined);
  await waitUntil('the focused table’s turn to be over', async () => (await tileState(p, id)).turn !== before.turn);
}

/** Swipes over the page with the touch screen (Chrome DevTools Protocol touch events). */
async function swipe(p: Page, fromX: number, toX: number, y: number): Promise<void> {
  const cdp = await p.context().newCDPSession(p);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: fromX, y }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: (fromX + toX) / 2, y }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: toX, y }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

describe('several tables in one page', () => {
  let page: Page;
  let name: string;
  const ids: string[] = [];

  beforeAll(async () => {
    page = await newPage({ viewport: { width: 1280, height: 800 } });
    name = uniqueName('multi');
    await signUp(page, name);
    // Four heads-up rooms, each with a bot, and a seat for her in each (through the page's own cookie).
    for (let i = 0; i < 4; i++) {
      ids.push(
        await page.evaluate(async (body) => {
          const res = await fetch('/api/rooms', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          if (!res.ok) throw new Error(`create room: ${res.status} ${await res.text()}`);
          return ((await res.json()) as { session_id: string }).session_id;
        }, ROOM),
      );
    }
  });

  it('opens four tables from the lobby into one page, tiled and readable at 1280×800', async () => {
    await page.reload();
    let sockets = 0;
    page.on('websocket', () => sockets++);
    for (const [i, id] of ids.entries()) {
      const open = page.locator(`.seat-list a[href="#/table/${id}"]`);
      await open.click();
      if (i === 0) {
        // One table is the table screen as before, at its old address.
        await page.waitForURL(`**/#/table/${id}`);
        await page.getByTestId('table').waitFor();
        expect(await page.getByTestId('deck').count()).toBe(0);
        await page.getByRole('link', { name: 'Felt lobby' }).click();
        await page.getByTestId('back-to-tables').getByText('Your tables (1)').waitFor();
        continue;
      }
      await page.waitForURL(new RegExp(`#/tables/${ids.slice(0, i + 1).join(',')}(\\?focus=\\d)?$`));
      await waitUntil(`${i + 1} tiles`, async () => (await tiles(page).count()) === i + 1);
      if (i < 3) await page.getByTestId('open-another').click();
    }
    expect(await tileIds(page)).toEqual(ids);
    const deck = page.getByTestId('deck');
    expect(await deck.getAttribute('data-mode')).toBe('tiled');
    expect(await deck.getAttribute('data-count')).toBe('4');
    // Each tile is a table of its own, on the page's one connection.
    for (const id of ids) await tile(page, id).getByTestId('table').waitFor();
    // All of it on the one WebSocket the page opened for the lobby.
    expect(sockets).toBe(1);
    expect(await smallText(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });

  it('outlines every table that waits for a decision, each with its own clock', async () => {
    // She does not act yet: heads-up against a bot, each table ends up waiting for her.
    await waitUntil('all four tables to wait for her', async () => (await waitingTiles(page).count()) === 4, 120_000);
    for (const id of ids) {
      const t = tile(page, id);
      expect(await t.getAttribute('data-needs-action')).toBe('true');
      expect(await t.getByTestId('tile-turn').textContent()).toBe('Your turn');
      expect(await t.evaluate((e) => getComputedStyle(e).boxShadow)).not.toBe('none');
      expect(await t.locator('.seat--hero [data-testid="clock"]').count()).toBe(1);
    }
    await screenshot(page, 'multi-tiled-desktop');
  });

  it('moves the focus with Ctrl+→, and the shortcut acts on the focused table only', async () => {
    const from = await focusIndex(page);
    await page.keyboard.press('Control+ArrowRight');
    const to = (from + 1) % 4;
    await waitUntil('the next table in focus', async () => (await focusIndex(page)) === to);
    expect(page.url()).toMatch(to === 0 ? /#\/tables\/[^?]+$/ : new RegExp(`\\?focus=${to}$`));
    const focused = await focusedWaiting(page);
    expect(focused).toBe(ids[to]);

    const before = new Map<string, { hash: string | null; turn: string | null }>();
    for (const id of ids) before.set(id, await tileState(page, id));
    await checkOrCallByKey(page, focused);
    // The other three tables still wait, exactly as they were: nothing was sent to them.
    for (const id of ids.filter((x) => x !== focused)) {
      expect(await tileState(page, id), id).toEqual(before.get(id));
      expect(await tile(page, id).getAttribute('data-needs-action')).toBe('true');
    }

    // The focus moved on by itself to a table still waiting; the key now acts there, and only there.
    const next = await focusedWaiting(page);
    expect(next).not.toBe(focused);
    const untouched = ids.filter((x) => x !== focused && x !== next);
    const still = new Map<string, { hash: string | null; turn: string | null }>();
    for (const id of untouched) still.set(id, await tileState(page, id));
    await checkOrCallByKey(page, next);
    for (const id of untouched) expect(await tileState(page, id), id).toEqual(still.get(id));

    // A click acts too, at the table clicked.
    const third = untouched[0]!;
    const turn = (await tileState(page, third)).turn;
    await tile(page, third)
      .getByTestId('action-bar')
      .getByRole('button', { name: /^(Check|Call)/ })
      .click();
    await tile(page, third)
      .getByTestId('confirm-all-in')
      .click({ timeout: 500 })
      .catch(() => undefined);
    await waitUntil('the clicked table’s turn to be over', async () => (await tileState(page, third)).turn !== turn);
    expect((await tileState(page, untouched[1]!)).turn).toBe(still.get(untouched[1]!)!.turn);
  });

  it('brings the four tiles back after a reload, and remembers the stacked layout', async () => {
    await page.reload();
    await waitUntil('four tiles', async () => (await tiles(page).count()) === 4);
    expect(await tileIds(page)).toEqual(ids);
    for (const id of ids) await tile(page, id).getByTestId('table').waitFor();
    const focus = await focusIndex(page);
    expect(page.url()).toMatch(focus === 0 ? /#\/tables\/[^?]+$/ : new RegExp(`\\?focus=${focus}$`));

    // Stacked: the table in focus is the big one, the others are tabs above it.
    await page.getByRole('button', { name: 'Stacked' }).click();
    const deck = page.getByTestId('deck');
    await waitUntil('the stacked layout', async () => (await deck.getAttribute('data-mode')) === 'stacked');
    expect(await page.evaluate(() => localStorage.getItem('felt.tableLayout'))).toBe('stacked');
    expect(await page.getByTestId('deck-tab').count()).toBe(4);
    await waitUntil('one table shown', async () => (await page.locator('[data-testid="tile"]:visible').count()) === 1);
    // A table waiting for her comes forward when picked (and stays: it waits for her).
    await waitUntil('a table to wait for her', async () => (await waitingTiles(page).count()) > 0, 60_000);
    const waiting = (await waitingTiles(page).first().getAttribute('data-tile'))!;
    const tab = page.locator(`[data-testid="deck-tab"][data-tile="${waiting}"]`);
    expect(await tab.getAttribute('data-needs-action')).toBe('true');
    await tab.click();
    await waitUntil('the picked table in front', async () => (await focusIndex(page)) === Number(waiting));
    expect(await page.locator('[data-testid="tile"]:visible').getAttribute('data-tile')).toBe(waiting);
    await screenshot(page, 'multi-stacked-desktop');
    await page.reload();
    await waitUntil(
      'the stacked layout after a reload',
      async () => (await deck.getAttribute('data-mode')) === 'stacked',
    );
    await page.getByRole('button', { name: 'Tiled' }).click();
    await waitUntil('the tiled layout', async () => (await deck.getAttribute('data-mode')) === 'tiled');
  });

  it('closes a tile without leaving its seat', async () => {
    const closed = ids[3]!;
    await tile(page, closed).getByTestId('tile-close').click();
    await waitUntil('three tiles', async () => (await tiles(page).count()) === 3);
    await page.waitForURL(new RegExp(`#/tables/${ids.slice(0, 3).join(',')}(\\?focus=\\d)?$`));
    const seats = await page.evaluate(
      async () => ((await (await fetch('/api/me')).json()) as { seats: { session_id: string }[] }).seats,
    );
    expect(seats.map((s) => s.session_id)).toContain(closed);
  });

  it('shows one table at a time on a phone, swiped or picked with the dots', async () => {
    const address = page.url();
    await page.context().close();
    const phone = await newPage(PHONE);
    await phone.goto(`${suite.env.origin}/`);
    await phone.getByRole('tab', { name: 'Log in' }).click();
    await phone.getByLabel('Name').fill(name);
    await phone.getByLabel('Password').fill(PASSWORD);
    await phone.getByRole('button', { name: 'Log in' }).click();
    await phone.getByRole('heading', { name: 'Lobby' }).waitFor();
    await phone.goto(address);
    const deck = phone.getByTestId('deck');
    await waitUntil(
      'the phone layout',
      async () => (await deck.getAttribute('data-mode').catch(() => null)) === 'phone',
    );
    expect(await phone.getByTestId('deck-tab').count()).toBe(3);
    // Every table waits for her, so the focus stays where the swipes put it.
    await waitUntil('all three tables to wait for her', async () => (await waitingTiles(phone).count()) === 3, 120_000);
    await waitUntil('one table shown', async () => (await phone.locator('[data-testid="tile"]:visible').count()) === 1);
    const shown = async () => phone.locator('[data-testid="tile"]:visible').getAttribute('data-table-id');
    const start = await focusIndex(phone);
    expect(await shown()).toBe(ids[start]);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'multi-phone');

    await swipe(phone, 320, 80, 420);
    await waitUntil('the next table after a swipe left', async () => (await focusIndex(phone)) === (start + 1) % 3);
    expect(await shown()).toBe(ids[(start + 1) % 3]);
    await swipe(phone, 80, 320, 420);
    await waitUntil('the previous table after a swipe right', async () => (await focusIndex(phone)) === start);
    expect(await shown()).toBe(ids[start]);

    const other = (start + 2) % 3;
    await phone.locator(`[data-testid="deck-tab"][data-tile="${other}"]`).click();
    await waitUntil('the table picked with its dot', async () => (await focusIndex(phone)) === other);
    expect(await shown()).toBe(ids[other]);
  });
});
