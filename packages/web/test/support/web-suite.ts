// What the browser suites share: the cluster and Chromium a test file drives, and the steps a
// player takes through the UI (sign up, create and join rooms, play passively, wait for hands).
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page, WebSocket as PwWebSocket } from 'playwright-core';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { launchChromium, screenshot } from './browser.js';
import { startWebCluster, type WebCluster } from './web-cluster.js';

export const PASSWORD = 'correct horse battery';

interface Started {
  readonly env: WebCluster;
  readonly browser: Browser;
  readonly contexts: BrowserContext[];
}

let suite: Started | undefined;

function started(): Started {
  if (!suite) throw new Error('call webSuite() at the top of the test file first');
  return suite;
}

/**
 * Starts a real cluster behind the built web client, and Chromium, before the file's tests (each
 * browser test file gets its own), and stops them after. `clusterEnv` shortens the services' timers.
 */
export function webSuite(clusterEnv: Record<string, string>): { readonly env: WebCluster } {
  beforeAll(async () => {
    const env = await startWebCluster(clusterEnv);
    suite = { env, browser: await launchChromium(), contexts: [] };
  }, 180_000);
  afterAll(async () => {
    for (const c of suite?.contexts ?? []) await c.close().catch(() => undefined);
    await suite?.browser.close();
    await suite?.env.stop();
    suite = undefined;
  });
  return {
    get env() {
      return started().env;
    },
  };
}

/** Everything a page received over its WebSockets, parsed. */
export type Frames = Record<string, unknown>[];

export function recordFrames(page: Page): Frames {
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

export async function newPage(options: Parameters<Browser['newContext']>[0]): Promise<Page> {
  const context = await started().browser.newContext(options);
  started().contexts.push(context);
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

export const uniqueName = (prefix: string): string => `${prefix}${randomBytes(3).toString('hex')}`;

export async function signUp(page: Page, name: string): Promise<void> {
  await page.goto(`${started().env.origin}/`);
  await page.getByRole('tab', { name: 'Sign up' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Lobby' }).waitFor();
  expect(await page.getByTestId('me-name').textContent()).toBe(name);
}

export async function createRoom(page: Page, game: string): Promise<{ tableId: string; code: string }> {
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

export async function joinByCode(page: Page, code: string, buyIn: number): Promise<void> {
  await page.goto(`${started().env.origin}/#/`);
  const form = page.getByRole('region', { name: 'Join by code' });
  await form.getByLabel('Room code').fill(code);
  await form.getByLabel('Buy-in').fill(String(buyIn));
  await form.getByRole('button', { name: 'Join room' }).click();
  await page.waitForURL(/#\/table\/[0-9a-f-]+$/);
  await page.getByTestId('table').waitFor();
}

/** The hand id the page shows, once a hand is on. */
export async function handId(page: Page): Promise<string> {
  return (await page.getByTestId('table').getAttribute('data-hand-id')) ?? '';
}

export async function myTurn(page: Page): Promise<boolean> {
  return page.getByTestId('action-bar').isVisible();
}

/** Identifies the hero's current turn (the table_seq it came with), or null when it is not theirs. */
export async function turnId(page: Page): Promise<string | null> {
  return page
    .getByTestId('action-bar')
    .getAttribute('data-turn', { timeout: 1_000 })
    .catch(() => null);
}

/** Waits until the turn `turn` is over: the bar is gone or shows a later turn (the same player can act next). */
export async function turnOver(page: Page, turn: string | null): Promise<void> {
  await waitUntil('the action to be taken', async () => (await turnId(page)) !== turn);
}

/** Checks when it is free, calls otherwise: a hand between two such players goes to showdown. */
export async function passiveAction(page: Page): Promise<void> {
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

export async function leaveTable(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Table tools' }).getByRole('button', { name: 'Leave' }).click();
  await page.getByRole('dialog', { name: 'Leave this table?' }).getByRole('button', { name: 'Leave' }).click();
  await page.getByRole('heading', { name: 'Lobby' }).waitFor();
}

export async function handPhase(page: Page): Promise<string> {
  return (await page.getByTestId('table').getAttribute('data-phase')) ?? '';
}

export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 100 },
  );
}

/** Plays the current hand between `players` to its end, passively, and returns its id. */
export async function playHandToEnd(players: Page[]): Promise<string> {
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
export async function nextHand(page: Page, previous: string): Promise<string> {
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
