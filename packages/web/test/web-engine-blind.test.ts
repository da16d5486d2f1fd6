// Engine-blind dealing in Chromium (docs/fairness.md, "Engine-blind dealing"): three players in three
// pages, each page's SDK keying, shuffling (at the real lambda) and opening its own cards; the host
// picks the mode in the create-room form; the table shows its badge; one player shows at the showdown
// and one mucks, and the mucked cards never reach another page.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP } from './support/browser.js';
import {
  handId,
  handPhase,
  joinByCode,
  myTurn,
  newPage,
  passiveAction,
  recordFrames,
  signUp,
  uniqueName,
  waitUntil,
  webSuite,
  type Frames,
} from './support/web-suite.js';

// A browser proves a shuffle in a second or three and checks each other's as long: generous deadlines.
webSuite({
  FELT_HAND_PAUSE_MS: '60000',
  FELT_BLIND_KEY_MS: '30000',
  FELT_BLIND_SHUFFLE_MS: '60000',
  FELT_BLIND_SHARE_MS: '30000',
});

/** The hero's cards as the page draws them (card codes; "hidden" for a face-down card). */
async function heroCards(page: Page): Promise<string[]> {
  const seat = await page.locator('.seat--hero').getAttribute('data-seat');
  return page
    .locator(`[data-testid="cards-${seat}"] [data-card]`)
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-card') ?? ''));
}

describe('engine-blind dealing in Chromium', () => {
  const pages: Page[] = [];
  const frames: Frames[] = [];

  beforeAll(async () => {
    for (const name of ['ann', 'ben', 'cat']) {
      const page = await newPage(DESKTOP);
      frames.push(recordFrames(page));
      await signUp(page, uniqueName(name));
      pages.push(page);
    }
  });

  it('three players deal a hand among themselves; each sees only its own cards until they are shown', async () => {
    const [ann, ben, cat] = pages as [Page, Page, Page];
    const others = [ben, cat];
    // The host picks engine-blind in the form: practice chips on and bot fill off come with it.
    await ann.getByRole('button', { name: 'Create a room' }).click();
    const dialog = ann.getByRole('dialog', { name: 'Create a room' });
    await dialog.getByLabel('Dealing', { exact: true }).selectOption({ label: 'Engine-blind' });
    await dialog.getByRole('button', { name: 'Create room' }).click();
    await ann.waitForURL(/#\/table\/[0-9a-f-]+$/);
    await ann.getByTestId('table').waitFor();
    const code = (await ann.locator('.table-bar__sub .mono').textContent())!.trim();
    await ann.getByTestId('engine-blind-badge').waitFor();
    for (const p of others) await joinByCode(p, code, 100);

    // The hand is dealt by the players' pages: a while of keys and shuffles, then the betting.
    await waitUntil(
      'the engine-blind deal',
      async () => (await handId(ann)) !== '' && (await handPhase(ann)) === 'betting',
      150_000,
    );
    const id = await handId(ann);
    const own = await Promise.all(pages.map(heroCards));
    for (const cards of own) {
      expect(cards).toHaveLength(2);
      expect(cards.every((c) => c !== 'hidden' && c !== '')).toBe(true);
    }
    expect(new Set(own.flat()).size).toBe(6);

    // Check or call to the showdown; there Ann and Ben show, Cat mucks.
    await waitUntil(
      'the hand to end',
      async () => {
        for (const [i, p] of pages.entries()) {
          if (!(await myTurn(p))) continue;
          const show = p.getByTestId(i === 2 ? 'blind-muck' : 'blind-show-cards');
          if (await show.isVisible()) await show.click();
          else await passiveAction(p);
        }
        const done = await Promise.all(pages.map(async (p) => (await handPhase(p)) === 'complete'));
        return done.every(Boolean) && (await handId(ann)) === id;
      },
      150_000,
    );

    // The table never sent anyone hole cards; Cat's mucked cards reached no other page.
    for (const f of frames) expect(f.some((m) => m.type === 'hole_cards_dealt')).toBe(false);
    for (const f of frames.slice(0, 2)) {
      const text = JSON.stringify(f);
      for (const card of own[2]!) expect(text).not.toContain(`"${card}"`);
    }
    // What was shown is what its owner read.
    const shown = frames[2]!.filter((m) => m.type === 'showdown').flatMap((m) => m.shown as { cards: string[] }[]);
    const shownCards = shown.flatMap((s) => s.cards).sort();
    for (const cards of own.slice(0, 2)) for (const c of cards) expect(shownCards).toContain(c);
  });
});
