// The wallet history page in Chromium against a real cluster: reached from the wallet in the header,
// it lists the sign-up grant and then the buy-in of a room the player creates, newest first, with
// the room's code and the balance after each movement, in English and in Chinese, on a phone too.
// Then the table's own small tools: the session summary and the sound toggle, kept across a reload.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, screenshot } from './support/browser.js';
import { createRoom, newPage, signUp, uniqueName, waitUntil, webSuite } from './support/web-suite.js';

webSuite({});

const chipsOf = (text: string | null): number =>
  Number((text ?? '').replace(/[^\d\u2212-]/g, '').replace('\u2212', '-'));

async function openWallet(page: Page): Promise<void> {
  await page.getByTestId('wallet').click();
  await page.waitForURL(/#\/wallet$/);
  await page.getByTestId('wallet-history').waitFor();
}

async function rows(page: Page): Promise<{ kind: string; amount: number; balance: number; text: string }[]> {
  const trs = page.locator('[data-testid="wallet-history"] tbody tr');
  const out = [];
  for (let i = 0; i < (await trs.count()); i++) {
    const tr = trs.nth(i);
    const cells = tr.locator('td');
    out.push({
      kind: (await tr.getAttribute('data-kind')) ?? '',
      amount: chipsOf(await cells.nth(2).textContent()),
      balance: chipsOf(await cells.nth(3).textContent()),
      text: (await tr.textContent()) ?? '',
    });
  }
  return out;
}

describe('the wallet history page', () => {
  it('lists the grant, then the buy-in of a new room, from the header’s wallet', async () => {
    const page = await newPage(PHONE);
    await signUp(page, uniqueName('wal'));
    const granted = chipsOf(await page.getByTestId('wallet').textContent());
    expect(granted).toBeGreaterThan(0);

    await openWallet(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Wallet history');
    expect(await rows(page)).toMatchObject([{ kind: 'grant', amount: granted, balance: granted }]);

    // Back to the lobby from the page, and into a new room (its buy-in leaves the wallet).
    await page.getByRole('link', { name: 'Back to the lobby' }).click();
    await page.getByRole('heading', { name: 'Lobby' }).waitFor();
    const table = await createRoom(page, "Hold'em");
    await openWallet(page);
    await waitUntil('the buy-in in the wallet history', async () => (await rows(page)).length === 2);
    const [buyIn, grant] = await rows(page);
    expect(buyIn).toMatchObject({ kind: 'buy_in', balance: granted + buyIn!.amount });
    expect(buyIn!.amount).toBeLessThan(0);
    expect(buyIn!.text).toContain(table.code);
    expect(grant).toMatchObject({ kind: 'grant', amount: granted, balance: granted });
    // The header and the page agree on the balance now.
    await waitUntil(
      'the header wallet after the buy-in',
      async () => chipsOf(await page.getByTestId('wallet').textContent()) === buyIn!.balance,
    );
    expect(chipsOf(await page.getByTestId('wallet-balance').textContent())).toBe(buyIn!.balance);
    await screenshot(page, 'wallet-history-phone');

    await page.getByLabel('Language').selectOption({ label: '简体中文' });
    await page.getByRole('heading', { level: 1, name: '钱包记录' }).waitFor();
    const zh = (await page.locator('[data-testid="wallet-history"]').textContent()) ?? '';
    expect(zh).toContain('买入');
    expect(zh).toContain('赠送筹码');
    await page.getByRole('link', { name: '返回大厅' }).click();
    await page.getByRole('heading', { name: '大厅' }).waitFor();
  });
});

describe('the table’s session summary and sound toggle', () => {
  it('opens the session summary, and keeps the sound choice across a reload, with no page error', async () => {
    const page = await newPage(DESKTOP);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await signUp(page, uniqueName('snd'));
    await createRoom(page, "Hold'em");
    // Chromium has Web Audio: the cues have somewhere to play.
    expect(await page.evaluate(() => typeof AudioContext)).toBe('function');

    await page.getByTestId('session-open').click();
    const dialog = page.getByRole('dialog', { name: 'Your session at this table' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('session-summary').textContent()).toContain('No hands played here yet');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    const toggle = page.getByTestId('sound-toggle');
    expect(await toggle.textContent()).toBe('Sound: on');
    await toggle.click();
    expect(await toggle.textContent()).toBe('Sound: off');
    await page.reload();
    await page.getByTestId('table').waitFor();
    expect(await page.getByTestId('sound-toggle').textContent()).toBe('Sound: off');
    await page.getByTestId('sound-toggle').click();
    expect(await page.getByTestId('sound-toggle').textContent()).toBe('Sound: on');
    expect(errors).toEqual([]);
  });
});
