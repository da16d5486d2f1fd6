// The lobby's tournaments tab in Chromium against a real cluster: an operator's scheduled tournament
// (created in the database as `npm run tournaments -- create` does) is listed under the Tournaments
// tab; its detail shows the structure, the payouts and the entrants; Register takes the buy-in and fee
// from the wallet the header shows, a reload keeps the tournament on screen, and Unregister gives them
// back. A tournament the wallet cannot pay for is refused in the catalog's words.
import { createTournament, newTournament } from '@felt/db';
import { parseTournamentConfig, type TournamentConfigInput } from '@felt/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, screenshot } from './support/browser.js';
import { englishWords, visibleTexts } from './support/i18n.js';
import { newPage, signUp, uniqueName, waitUntil, webSuite } from './support/web-suite.js';

const suite = webSuite({});

const DAY_MS = 24 * 3600_000;

async function tournament(input: Partial<TournamentConfigInput>): Promise<string> {
  const config = parseTournamentConfig({
    name: 'Sunday 100',
    format: 'scheduled',
    // A day ahead: it takes registrations for the whole test.
    startsAt: new Date(Date.now() + DAY_MS).toISOString(),
    buyIn: 100,
    fee: 10,
    startingStack: 10_000,
    structure: {
      levels: [{ bigBlind: 50 }, { bigBlind: 100, ante: 10 }, { bigBlind: 200 }, { bigBlind: 400 }],
      levelLength: { unit: 'minutes', value: 10 },
      breaks: { everyLevels: 2, minutes: 5 },
    },
    ...input,
  });
  const { id } = await createTournament(suite.env.cluster.db.prisma, newTournament(config, null));
  return id;
}

const chipsOf = (text: string | null): number => Number((text ?? '').replace(/[^\d]/g, ''));
const wallet = async (page: Page): Promise<number> => chipsOf(await page.getByTestId('wallet').textContent());

async function hasHorizontalOverflow(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

describe('the tournaments tab', () => {
  it('lists a tournament; Register and Unregister move the wallet; a reload keeps the tournament', async () => {
    const id = await tournament({ name: `Sunday ${uniqueName('')}` });
    const page = await newPage(DESKTOP);
    await signUp(page, uniqueName('trn'));
    const granted = await wallet(page);
    expect(granted).toBeGreaterThan(110);

    await page.getByRole('tab', { name: 'Tournaments' }).click();
    await page.waitForURL(/#\/tournaments$/);
    expect(await page.getByRole('tab', { name: 'Tournaments' }).getAttribute('aria-selected')).toBe('true');
    const row = page.locator(`[data-testid="tournaments"] tr[data-tournament="${id}"]`);
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(1, 5)).toEqual(['Scheduled', 'Registering', '100 + 10', '0/100']);
    await screenshot(page, 'tournaments-list-desktop');

    await row.getByRole('link').click();
    await page.waitForURL(new RegExp(`#/tournaments/${id}$`));
    const detail = page.getByTestId('tournament');
    await detail.waitFor();
    expect(await detail.getAttribute('data-registration')).toBe('register');
    // Four levels and the break after the second.
    expect(await page.locator('[data-testid="tournament-structure"] tbody tr').count()).toBe(5);
    expect(await page.locator('[data-testid="tournament-structure"] tr[data-break]').textContent()).toBe(
      'Break: 5 minutes',
    );

    await page.getByRole('button', { name: /^Register for / }).click();
    await waitUntil('the registration', async () => (await detail.getAttribute('data-registration')) === 'unregister');
    await waitUntil('the wallet after the buy-in and fee', async () => (await wallet(page)) === granted - 110);
    expect(await page.getByTestId('tournament-entrants').textContent()).toBe('1 of 2 to 100');
    expect(await page.getByTestId('tournament-pool').textContent()).toBe('100');
    expect(await page.getByTestId('tournament-players').textContent()).toContain('(you)');
    expect(await page.locator('[data-testid="tournament-payouts"] tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'tournament-registered-desktop');

    await page.reload();
    await page.getByTestId('tournament').waitFor();
    expect(await page.getByTestId('tournament').getAttribute('data-registration')).toBe('unregister');
    // The live lobby may first hand the new page the balance it last published (before the entry; it
    // reads the wallets once a tick), and the header then asks /api/me again: wait for that answer.
    await waitUntil('the wallet after the reload', async () => (await wallet(page)) === granted - 110);

    await page.getByRole('button', { name: /^Unregister from / }).click();
    await waitUntil(
      'the unregistration',
      async () => (await page.getByTestId('tournament').getAttribute('data-registration')) === 'register',
    );
    await waitUntil('the wallet after the refund', async () => (await wallet(page)) === granted);

    // Back to the list, then to the tables tab with the arrow key.
    await page.getByRole('link', { name: 'All tournaments' }).click();
    await page.waitForURL(/#\/tournaments$/);
    await page.getByRole('tab', { name: 'Tournaments' }).press('ArrowLeft');
    await page.waitForURL(/#\/$/);
    await page.getByRole('region', { name: 'Tables' }).waitFor();
  });

  it('a tournament the wallet cannot pay for is refused in words, in English and Chinese, on a phone', async () => {
    const id = await tournament({ name: `High roller ${uniqueName('')}`, buyIn: 50_000_000, fee: 0 });
    const page = await newPage(PHONE);
    const name = uniqueName('trn');
    await signUp(page, name);
    const before = await wallet(page);
    await page.goto(`${suite.env.origin}/#/tournaments/${id}`);
    await page.getByTestId('tournament').waitFor();
    await page.getByRole('button', { name: /^Register for / }).click();
    const error = page.getByTestId('tournament-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('Your wallet does not have enough chips for that.');
    expect(await page.getByTestId('tournament').getAttribute('data-registration')).toBe('register');
    expect(await wallet(page)).toBe(before);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, 'tournament-refused-phone');

    // In Chinese, the refusal too: nothing English is left but the names.
    await page.getByTestId('language').selectOption('zh-CN');
    await page.getByRole('heading', { name: '大厅' }).waitFor();
    expect(await error.textContent()).toBe('你的钱包筹码不足。');
    expect(englishWords(await visibleTexts(page), [name, 'High', 'roller'])).toEqual([]);
    await screenshot(page, 'tournament-refused-zh-phone');
  });
});
