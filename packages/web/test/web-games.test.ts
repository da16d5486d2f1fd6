// The web client in Chromium at the other game families (a Stud hand, a draw, a mixed game's
// rotation), then logging out and back in, the page in Chinese, and a pre-action taken by itself when
// the turn comes. The same cluster and UI steps as web-client.test.ts.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, screenshot } from './support/browser.js';
import { englishWords, visibleTexts } from './support/i18n.js';
import {
  createRoom,
  handPhase,
  joinByCode,
  leaveTable,
  myTurn,
  newPage,
  PASSWORD,
  passiveAction,
  signUp,
  turnId,
  turnOver,
  uniqueName,
  waitUntil,
  webSuite,
} from './support/web-suite.js';

const suite = webSuite({ FELT_HAND_PAUSE_MS: '4000' });

describe('the web client in Chromium at other games', () => {
  let alice: Page;
  let aliceName: string;
  let bob: Page;

  beforeAll(async () => {
    // Two signed-up players in the lobby, on a desktop and on a phone.
    alice = await newPage(DESKTOP);
    bob = await newPage({ ...PHONE, reducedMotion: 'reduce' });
    aliceName = uniqueName('alice');
    await signUp(alice, aliceName);
    await signUp(bob, uniqueName('bob'));
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

  it('switching language to Chinese changes every visible string, is kept for the account and survives a reload', async () => {
    // Carol's browser is English, so the page starts in English.
    const carol = await newPage({ ...DESKTOP, locale: 'en-US' });
    const carolName = uniqueName('carol');
    await signUp(carol, carolName);
    expect(await carol.evaluate(() => document.documentElement.lang)).toBe('en');
    expect((await visibleTexts(carol)).join(' ')).toContain('Create a room');

    await carol.getByTestId('language').selectOption('zh-CN');
    await carol.getByRole('heading', { name: '大厅' }).waitFor();
    expect(await carol.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(englishWords(await visibleTexts(carol), [carolName])).toEqual([]);
    // Kept for the account (the lobby API), and in this browser.
    await expect
      .poll(() => carol.evaluate(async () => ((await (await fetch('/api/me')).json()) as { locale: unknown }).locale))
      .toBe('zh-CN');
    expect(await carol.evaluate(() => localStorage.getItem('felt.locale'))).toBe('zh-CN');

    // The create-room dialog, then the table, in Chinese.
    await carol.getByRole('button', { name: '创建房间' }).click();
    const dialog = carol.getByRole('dialog', { name: '创建房间' });
    await dialog.waitFor();
    expect(englishWords(await visibleTexts(carol), [carolName])).toEqual([]);
    await dialog.getByLabel('游戏', { exact: true }).selectOption({ label: '德州扑克' });
    await dialog.getByRole('button', { name: '创建房间' }).click();
    await carol.waitForURL(/#\/table\/[0-9a-f-]+$/);
    await carol.getByTestId('table').waitFor();
    const code = (await carol.locator('.table-bar__sub .mono').textContent())!.trim();
    expect(englishWords(await visibleTexts(carol), [carolName])).toEqual([]);

    // Dave plays in English: the language is per account. A hand deals; Carol's turn comes.
    const dave = await newPage(DESKTOP);
    const daveName = uniqueName('dave');
    await signUp(dave, daveName);
    await joinByCode(dave, code, 200);
    expect(await dave.getByRole('navigation', { name: 'Table tools' }).isVisible()).toBe(true);
    await waitUntil(
      'Carol’s turn',
      async () => {
        if (await myTurn(dave)) await passiveAction(dave);
        return myTurn(carol);
      },
      60_000,
    );
    const names = [carolName, daveName];
    const onTable = await visibleTexts(carol);
    expect(onTable.join(' ')).toContain('弃牌');
    expect(englishWords(onTable, names)).toEqual([]);
    await screenshot(carol, 'table-zh-desktop');

    // A reload comes back in Chinese, at the same table.
    await carol.reload();
    await carol.getByTestId('table').waitFor();
    await carol.getByRole('navigation', { name: '牌桌工具' }).waitFor();
    expect(await carol.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(englishWords(await visibleTexts(carol), names)).toEqual([]);

    // Another browser, English and with nothing stored: after Carol logs in, her account's choice wins.
    const elsewhere = await newPage({ ...PHONE, locale: 'en-US' });
    await elsewhere.goto(`${suite.env.origin}/`);
    await elsewhere.getByRole('tab', { name: 'Log in' }).click();
    await elsewhere.getByLabel('Name').fill(carolName);
    await elsewhere.getByLabel('Password').fill(PASSWORD);
    await elsewhere.getByRole('button', { name: 'Log in' }).click();
    await elsewhere.getByRole('heading', { name: '大厅' }).waitFor();
    expect(englishWords(await visibleTexts(elsewhere), names)).toEqual([]);

    // Before anyone signs in, a browser that prefers Chinese gets Chinese.
    const chineseBrowser = await newPage({ ...PHONE, locale: 'zh-CN' });
    await chineseBrowser.goto(`${suite.env.origin}/`);
    await chineseBrowser.getByRole('tab', { name: '注册' }).waitFor();
    expect(englishWords(await visibleTexts(chineseBrowser))).toEqual([]);
    await screenshot(chineseBrowser, 'signup-zh-phone');

    // Both leave; Carol in Chinese.
    await carol.getByRole('navigation', { name: '牌桌工具' }).getByRole('button', { name: '离开' }).click();
    await carol.getByRole('dialog', { name: '离开这张牌桌？' }).getByRole('button', { name: '离开' }).click();
    await carol.getByRole('heading', { name: '大厅' }).waitFor();
    await leaveTable(dave);
  });

  it('a pre-action chosen before the turn is taken by itself when the turn comes, through a raise', async () => {
    const erin = await newPage(DESKTOP);
    const erinName = uniqueName('erin');
    await signUp(erin, erinName);
    const frank = await newPage(DESKTOP);
    await signUp(frank, uniqueName('frank'));
    const { code } = await createRoom(erin, "Hold'em");
    await joinByCode(frank, code, 200);
    const choices = erin.getByRole('group', { name: 'Before your turn' });
    // Erin checks or calls until it is Frank's turn with Erin in the hand: her pre-actions are offered.
    await waitUntil(
      'Frank to act, Erin in the hand',
      async () => {
        if (await myTurn(erin)) await passiveAction(erin);
        return (await myTurn(frank)) && (await choices.isVisible());
      },
      60_000,
    );
    // Erin picks Call any with the keyboard.
    const callAny = choices.getByRole('button', { name: 'Call any' });
    await callAny.focus();
    await erin.keyboard.press('Space');
    expect(await callAny.getAttribute('aria-pressed')).toBe('true');
    expect(await choices.locator('[aria-pressed="true"]').count()).toBe(1);
    await screenshot(erin, 'pre-actions-desktop');
    const erinCalls = () =>
      erin
        .getByTestId('hand-log')
        .locator('li')
        .evaluateAll((els, name) => els.filter((e) => e.textContent?.startsWith(`${name}: Call`)).length, erinName);
    const before = await erinCalls();
    // Frank raises: Call any survives the bet change, and Erin's turn is answered without a click.
    const turn = await turnId(frank);
    await frank
      .getByTestId('action-bar')
      .getByRole('button', { name: /^(Bet|Raise to) / })
      .click();
    await frank
      .getByTestId('confirm-all-in')
      .click({ timeout: 1_000 })
      .catch(() => undefined);
    await turnOver(frank, turn);
    await waitUntil('Erin’s call, by itself', async () => (await erinCalls()) > before, 15_000);
    expect(await erin.locator('[data-pre-action][aria-pressed="true"]').count()).toBe(0);
  });
});
