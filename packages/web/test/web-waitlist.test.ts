// Waitlists in Chromium against a real cluster: a heads-up room is full; Carol waits for a seat from
// the lobby (the list says how many wait, live); Bob leaves, and once his hand is over and his seat is
// paid out the lobby holds it for Carol: the offer appears on her page over the WebSocket, with its
// countdown, and Take the seat puts her at the table.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.js';
import {
  joinByCode,
  leaveTable,
  myTurn,
  newPage,
  passiveAction,
  signUp,
  uniqueName,
  waitUntil,
  webSuite,
} from './support/web-suite.js';

webSuite({ FELT_HAND_PAUSE_MS: '2000' });

const LAPTOP = { viewport: { width: 1280, height: 800 } };

/** Creates a heads-up Hold'em room from the lobby (the creator is seated) and returns its code. */
async function createHeadsUp(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Create a room' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a room' });
  await dialog.getByLabel('Game', { exact: true }).selectOption({ label: "Hold'em" });
  await dialog.getByLabel('Seats', { exact: true }).fill('2');
  await dialog.getByRole('button', { name: 'Create room' }).click();
  await page.waitForURL(/#\/table\/[0-9a-f-]+$/);
  await page.getByTestId('table').waitFor();
  const code = (await page.locator('.table-bar__sub .mono').textContent())!.trim();
  expect(code).toMatch(/^\d{6}$/);
  return code;
}

describe('waitlists in Chromium', () => {
  let alice: Page;
  let bob: Page;
  let carol: Page;
  let carolName: string;
  let code: string;

  beforeAll(async () => {
    [alice, bob, carol] = await Promise.all([newPage(LAPTOP), newPage(LAPTOP), newPage(LAPTOP)]);
    carolName = uniqueName('carol');
    await signUp(alice, uniqueName('alice'));
    await signUp(bob, uniqueName('bob'));
    await signUp(carol, carolName);
    code = await createHeadsUp(alice);
    await joinByCode(bob, code, 200);
  });

  it('a player waits at a full room from the lobby, and the list shows the line live', async () => {
    const row = carol.locator(`tr[data-room="${code}"]`);
    await row.waitFor();
    await expect.poll(async () => row.locator('td').nth(2).textContent()).toMatch(/^2\/2/);
    await row.getByRole('button', { name: `Wait for a seat at room ${code}` }).click();
    await carol.getByText(`You are number 1 in line for room ${code}.`).waitFor();
    const lists = carol.getByTestId('waitlists');
    await expect.poll(() => lists.locator(`li[data-room="${code}"]`).textContent()).toContain('number 1 of 1 in line');
    // The live list counts her (the live lobby's delta: this page does not poll while it is live).
    await expect
      .poll(() =>
        row
          .getByTestId('waitlist-count')
          .textContent({ timeout: 1_000 })
          .catch(() => ''),
      )
      .toBe(' · 1 waiting');
    expect(await row.getByRole('button', { name: `Leave the waitlist of room ${code}` }).isVisible()).toBe(true);
    await screenshot(carol, 'waitlist-lobby');
  });

  it('the seat that comes free is offered to her on her page, and Take the seat seats her', async () => {
    await leaveTable(bob);
    // Alice plays the hand out (Bob is folded when his turn comes); his seat is paid out after it,
    // and the lobby holds it for Carol.
    const offer = carol.getByTestId('waitlist-offer');
    await waitUntil(
      'the offer on Carol’s page',
      async () => {
        if (await myTurn(alice)) await passiveAction(alice);
        return (await offer.count()) > 0;
      },
      90_000,
    );
    expect(await offer.getAttribute('data-room')).toBe(code);
    const text = (await offer.locator('span').textContent())!;
    const seconds = Number(/within (\d+) s/.exec(text)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(30);
    await screenshot(carol, 'waitlist-offer');
    // A stranger cannot take the held seat.
    const dave = await newPage(LAPTOP);
    await signUp(dave, uniqueName('dave'));
    await dave.goto(dave.url().replace(/#.*$/, '#/'));
    const form = dave.getByRole('region', { name: 'Join by code' });
    await form.getByLabel('Room code').fill(code);
    await form.getByLabel('Buy-in').fill('200');
    await form.getByRole('button', { name: 'Join room' }).click();
    await form.getByRole('alert').waitFor();
    expect(dave.url()).not.toMatch(/#\/table\//);

    await offer.getByRole('button', { name: 'Take the seat' }).click();
    const dialog = carol.getByRole('dialog');
    await dialog.getByLabel('Buy-in').fill('200');
    await dialog.getByRole('button', { name: 'Take a seat' }).click();
    await carol.waitForURL(/#\/table\/[0-9a-f-]+$/);
    await carol.getByTestId('table').waitFor();
    await expect.poll(() => carol.getByTestId('waitlist-offer').count()).toBe(0);
    // She is at the table, in the seat Bob left.
    await expect
      .poll(() => alice.locator('.seat').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? '')))
      .toEqual(expect.arrayContaining([expect.stringContaining(carolName)]));
  });
});
