// Table chat in Chromium against a real cluster: two players chat at one table (Alice at 1280×800,
// Bob on a phone where the panel starts folded), a mute hides and shows a player, the dealer announces
// the winner in the same panel, a burst hits the table's rate limit and the catalog's sentence
// appears, and the host's switch turns chat off (and on) mid-session through the lobby.
import type { Page } from 'playwright-core';
import { CHAT_RATE, CHAT_TEXT_MAX } from '@felt/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { PHONE, screenshot } from './support/browser.js';
import {
  createRoom,
  joinByCode,
  newPage,
  playHandToEnd,
  signUp,
  uniqueName,
  waitUntil,
  webSuite,
} from './support/web-suite.js';

webSuite({ FELT_HAND_PAUSE_MS: '4000' });

const LAPTOP = { viewport: { width: 1280, height: 800 } };

const panel = (page: Page) => page.getByTestId('chat-panel');

/** The chat lines the page shows: "name: text" for messages. */
async function messages(page: Page): Promise<string[]> {
  return panel(page)
    .getByTestId('chat-message')
    .evaluateAll((els) =>
      els.map((e) => `${e.querySelector('.chat__from')?.textContent}: ${e.querySelector('.chat__text')?.textContent}`),
    );
}

async function say(page: Page, text: string): Promise<void> {
  const input = panel(page).getByTestId('chat-input');
  await input.fill(text);
  await input.press('Enter');
}

/**
 * Says `text` (unique in the test) and waits for the outcome: null when the message came back from
 * the table, else the refusal the panel shows.
 */
async function sayAndWait(page: Page, name: string, text: string): Promise<string | null> {
  await say(page, text);
  const error = panel(page).getByTestId('chat-error');
  let outcome: string | null | undefined;
  await waitUntil(`the answer to "${text}"`, async () => {
    if ((await messages(page)).includes(`${name}: ${text}`)) outcome = null;
    else if ((await error.count()) > 0) outcome = await error.textContent();
    return outcome !== undefined;
  });
  return outcome ?? null;
}

describe('table chat in Chromium', () => {
  let alice: Page;
  let aliceName: string;
  let bob: Page;
  let bobName: string;

  beforeAll(async () => {
    alice = await newPage(LAPTOP);
    bob = await newPage(PHONE);
    aliceName = uniqueName('alice');
    bobName = uniqueName('bob');
    await signUp(alice, aliceName);
    await signUp(bob, bobName);
    const room = await createRoom(alice, "Hold'em");
    await joinByCode(bob, room.code, 200);
  });

  it('two players chat: names, seats, times, the counter, and a folded panel on the phone', async () => {
    // At 1280×800 the panel is open and its input is on screen.
    expect(await panel(alice).getAttribute('data-open')).toBe('true');
    const box = await panel(alice).getByTestId('chat-input').boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y + box!.height).toBeLessThanOrEqual(800);
    expect(box!.x + box!.width).toBeLessThanOrEqual(1280);
    // On the phone it starts folded.
    expect(await panel(bob).getAttribute('data-open')).toBe('false');

    const input = panel(alice).getByTestId('chat-input');
    await input.fill('  hello bob  ');
    expect(await panel(alice).getByTestId('chat-count').textContent()).toBe(String(CHAT_TEXT_MAX - 9));
    await input.press('Enter');
    await expect.poll(() => messages(alice)).toEqual([`${aliceName}: hello bob`]);
    expect(await input.inputValue()).toBe('');

    // Bob's folded panel counts it; opening it shows it.
    await panel(bob).getByTestId('chat-unread').waitFor();
    // Alice's message, and the dealer's line if a hand ended meanwhile.
    expect(await panel(bob).getByTestId('chat-unread').textContent()).toMatch(/^[12] new$/);
    await panel(bob).getByTestId('chat-toggle').click();
    await expect.poll(() => messages(bob)).toEqual([`${aliceName}: hello bob`]);
    const line = panel(bob).getByTestId('chat-message').first();
    expect(await line.locator('.chat__who').textContent()).toMatch(/^Seat \d+$/);
    expect(await line.locator('time').textContent()).toMatch(/^\d{2}:\d{2}\s[AP]M$/);

    await say(bob, 'hi alice, gl');
    await expect.poll(() => messages(alice)).toEqual([`${aliceName}: hello bob`, `${bobName}: hi alice, gl`]);
    expect(await panel(alice).getByTestId('chat-error').count()).toBe(0);
    await screenshot(alice, 'chat-desktop');
    await screenshot(bob, 'chat-phone');
  });

  it('a mute hides a player’s messages on that page only, and unmuting brings them back', async () => {
    await panel(alice).getByTestId('chat-name').filter({ hasText: bobName }).first().click();
    await expect.poll(() => messages(alice)).toEqual([`${aliceName}: hello bob`]);
    await say(bob, 'can you hear me');
    await expect.poll(async () => (await messages(bob)).at(-1)).toBe(`${bobName}: can you hear me`);
    expect(await messages(alice)).toEqual([`${aliceName}: hello bob`]);
    const unmute = panel(alice).getByTestId('chat-unmute');
    expect(await unmute.textContent()).toBe(bobName);
    await unmute.click();
    await expect
      .poll(() => messages(alice))
      .toEqual([`${aliceName}: hello bob`, `${bobName}: hi alice, gl`, `${bobName}: can you hear me`]);
    expect(await panel(alice).getByTestId('chat-muted').count()).toBe(0);
  });

  it('the dealer announces who won in the same panel', async () => {
    await playHandToEnd([alice, bob]);
    for (const page of [alice, bob]) {
      await panel(page).getByTestId('chat-dealer').first().waitFor({ timeout: 15_000 });
      const line = panel(page).getByTestId('chat-dealer').first();
      expect(await line.locator('.chat__from').textContent()).toBe('Dealer');
      expect(await line.locator('.chat__text').textContent()).toMatch(
        new RegExp(`^(${aliceName}|${bobName}) wins [\\d,]+ from the main pot$`),
      );
    }
  });

  it('a burst hits the rate limit and the typed refusal appears', async () => {
    const sent: string[] = [];
    let refusal: string | null = null;
    while (refusal === null && sent.length < 20) {
      const text = `burst ${sent.length + 1}`;
      sent.push(text);
      refusal = await sayAndWait(bob, bobName, text);
    }
    expect(refusal).toBe('You are sending messages too fast. Wait a moment, then try again.');
    // The refused message was not said; the burst before it was, in order.
    expect(sent.length).toBeGreaterThan(CHAT_RATE.burst);
    const said = sent.slice(0, -1).map((s) => `${bobName}: ${s}`);
    await expect.poll(async () => (await messages(alice)).slice(-said.length)).toEqual(said);
    expect(await messages(alice)).not.toContain(`${bobName}: ${sent.at(-1)}`);
    // Editing the message clears the refusal.
    await panel(bob).getByTestId('chat-input').fill('ok');
    expect(await panel(bob).getByTestId('chat-error').count()).toBe(0);
    await screenshot(bob, 'chat-rate-limited-phone');
  });

  it('the host turns chat off and on for the room mid-session', async () => {
    const host = panel(alice).getByTestId('chat-host');
    expect(await panel(bob).getByTestId('chat-host').count()).toBe(0);
    await host.getByTestId('chat-enabled').uncheck();
    await panel(alice).getByTestId('chat-off').waitFor();
    expect(await host.getByTestId('chat-enabled').isChecked()).toBe(false);
    // The table takes the setting at its refresh of the room rows, which the lobby's event triggers;
    // until then Bob may still be said, or rate-limited after the burst.
    const seen: (string | null)[] = [];
    const off = 'The host has turned chat off at this table.';
    for (let i = 1; seen.at(-1) !== off; i++) {
      if (i > 20) throw new Error(`the table never refused: Bob saw ${JSON.stringify(seen)}`);
      seen.push(await sayAndWait(bob, bobName, `still there ${i}`));
      if (seen.at(-1) !== off) await bob.waitForTimeout(500);
    }
    await host.getByTestId('chat-enabled').check();
    await panel(alice).getByTestId('chat-off').waitFor({ state: 'detached' });
    seen.length = 0;
    let text = '';
    for (let i = 1; seen.length === 0 || seen.at(-1) !== null; i++) {
      if (i > 20) throw new Error(`chat never came back: Bob saw ${JSON.stringify(seen)}`);
      text = `back again ${i}`;
      seen.push(await sayAndWait(bob, bobName, text));
      if (seen.at(-1) !== null) await bob.waitForTimeout(500);
    }
    await expect.poll(async () => (await messages(alice)).at(-1)).toBe(`${bobName}: ${text}`);
  });
});
