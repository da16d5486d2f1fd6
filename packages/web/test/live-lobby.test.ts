// The live lobby in Chromium against a real cluster: with the lobby screen open, a room another player
// opens through the API appears in the list, and its seat count moves, without one request to
// GET /api/rooms (the page polled before its first live list, and stops then); the screen's filters
// apply to the live list on the page; the header's wallet follows a buy-in the watcher makes
// elsewhere, without a reload. Last, the socket drops (its gateway is killed): the page polls again
// until the SDK is subscribed on the other gateway, and the list is live again.
import { LobbyClient, type LobbyCreatedRoom } from '@felt/client';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, screenshot } from './support/browser.js';
import { newPage, PASSWORD, signUp, uniqueName, waitUntil, webSuite } from './support/web-suite.js';

// The lobby's feed reads the list every 200 ms instead of every second.
const suite = webSuite({ FELT_LOBBY_FEED_MS: '200' });

/** The window: no request for the list while a room opens. */
const QUIET_MS = 10_000;

const isRoomList = (r: Request): boolean => new URL(r.url()).pathname === '/api/rooms' && r.method() === 'GET';

const chipsOf = (text: string | null): number => Number((text ?? '').replace(/[^\d]/g, ''));

const feed = (page: Page, mode: 'live' | 'polling') => page.locator(`[data-testid="lobby-feed"][data-mode="${mode}"]`);

const row = (page: Page, code: string) => page.locator(`table.rooms tr[data-room="${code}"]`);

async function player(prefix: string): Promise<LobbyClient> {
  const lobby = new LobbyClient({ baseUrl: suite.env.cluster.lobby!.url });
  await lobby.signup(uniqueName(prefix), PASSWORD);
  return lobby;
}

/** Resolves with true when no request for the list started within `ms`, false at the first one. */
async function noRoomListFor(page: Page, ms: number): Promise<boolean> {
  return page.waitForRequest(isRoomList, { timeout: ms }).then(
    () => false,
    (err: unknown) => {
      if (err instanceof Error && err.name === 'TimeoutError') return true;
      throw err;
    },
  );
}

describe('the live lobby in the page', () => {
  let page: Page;
  let name: string;
  const listRequests: { at: number; url: string }[] = [];
  let room: LobbyCreatedRoom;

  beforeAll(async () => {
    page = await newPage(DESKTOP);
    page.on('request', (r) => {
      if (isRoomList(r)) listRequests.push({ at: Date.now(), url: r.url() });
    });
    name = uniqueName('live');
    await signUp(page, name);
    await feed(page, 'live').waitFor({ timeout: 30_000 });
    expect(await feed(page, 'live').textContent()).toBe('Live: the list updates as tables open, fill and close.');
  });

  it('shows a room another player opens, and its seats filling, with no request to /api/rooms', async () => {
    // Before its first live list the page polled, as it always did: the recorder sees those.
    expect(listRequests.length).toBeGreaterThan(0);
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const host = await player('host');
    const guest = await player('guest');

    const start = Date.now();
    const quiet = noRoomListFor(page, QUIET_MS);
    room = await host.createRoom({ config: { listed: true } });
    await row(page, room.code).waitFor({ timeout: QUIET_MS });
    const players = room.room.players;
    expect(await row(page, room.code).locator('td').nth(2).textContent()).toBe(`${players}/${room.room.seats}`);

    // Someone sits down: the seat count moves in the row.
    await guest.joinByCode(room.code, { buy_in: room.room.buy_in.min });
    await waitUntil(
      'the seat count after the guest sat down',
      async () =>
        (await row(page, room.code).locator('td').nth(2).textContent()) === `${players + 1}/${room.room.seats}`,
      QUIET_MS,
    );

    // The whole window passed with no request for the list, and the recorder agrees.
    expect(await quiet).toBe(true);
    expect(listRequests.filter((r) => r.at >= start)).toEqual([]);
    expect(await feed(page, 'live').count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await screenshot(page, 'live-lobby-room-opened');
  });

  it('applies the screen’s filters to the live list on the page', async () => {
    const start = Date.now();
    const tables = page.getByRole('region', { name: 'Tables' });
    await tables.getByLabel('Game', { exact: true }).selectOption({ label: 'Omaha' });
    await row(page, room.code).waitFor({ state: 'detached' });
    await tables.getByLabel('Game', { exact: true }).selectOption({ label: "Hold'em" });
    await row(page, room.code).waitFor();
    await tables.getByLabel('Game', { exact: true }).selectOption({ value: '' });
    await row(page, room.code).waitFor();
    expect(listRequests.filter((r) => r.at >= start)).toEqual([]);
  });

  it('moves the header’s wallet and lists the seat when the watcher buys in elsewhere, without a reload', async () => {
    const start = Date.now();
    const before = chipsOf(await page.getByTestId('wallet').textContent());
    expect(before).toBeGreaterThan(0);
    // The same player, signed in from another device (a Node client with its own session).
    const elsewhere = new LobbyClient({ baseUrl: suite.env.cluster.lobby!.url });
    await elsewhere.login(name, PASSWORD);
    const buyIn = room.room.buy_in.min;
    await elsewhere.joinByCode(room.code, { buy_in: buyIn });

    await waitUntil(
      'the header wallet after the buy-in',
      async () => chipsOf(await page.getByTestId('wallet').textContent()) === before - buyIn,
      QUIET_MS,
    );
    // The wallet moved, so the page read its seats again: the new one is listed, with Open in the row.
    await page.getByRole('region', { name: 'Your seats' }).getByText(room.code).waitFor({ timeout: QUIET_MS });
    await row(page, room.code).getByRole('link', { name: 'Open' }).waitFor({ timeout: QUIET_MS });
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(listRequests.filter((r) => r.at >= start)).toEqual([]);
  });

  it('polls while the socket is down, and is live again on the other gateway', async () => {
    const polled = page.waitForRequest(isRoomList, { timeout: 45_000 });
    await suite.env.killFirstGateway();
    // The SDK lost its list with the socket: the page asks the HTTP API again at once.
    await polled;
    await feed(page, 'live').waitFor({ timeout: 45_000 });

    // Live again: a room opened now shows with no further request for the list.
    const start = Date.now();
    const quiet = noRoomListFor(page, QUIET_MS);
    const host = await player('host2');
    const next = await host.createRoom({ config: { listed: true } });
    await row(page, next.code).waitFor({ timeout: QUIET_MS });
    expect(await quiet).toBe(true);
    expect(listRequests.filter((r) => r.at >= start)).toEqual([]);
  });
});
