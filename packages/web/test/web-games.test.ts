// The web client in Chromium at the other game families (a Stud hand, a draw, a mixed game's
// rotation), then logging out and back in. The same cluster and UI steps as web-client.test.ts.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, screenshot } from './support/browser.js';
import {
  createRoom,
  handPhase,
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

webSuite({ FELT_HAND_PAUSE_MS: '4000' });

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
});
