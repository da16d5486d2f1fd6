// The web client in a real Chromium against a real cluster (docs/web-client.md): built services as
// processes, a fresh database, a random Redis prefix, and the built client served from the page's
// origin with /api on the same origin. Every step goes through the UI a player uses. This file follows
// one Hold'em table from its first hand to the players leaving it; web-games.test.ts covers the
// other game families and logging out.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, screenshot, smallText, TABLET } from './support/browser.js';
import {
  createRoom,
  handId,
  joinByCode,
  leaveTable,
  myTurn,
  newPage,
  nextHand,
  passiveAction,
  playHandToEnd,
  recordFrames,
  signUp,
  turnId,
  turnOver,
  uniqueName,
  waitUntil,
  webSuite,
  type Frames,
} from './support/web-suite.js';

const suite = webSuite({ FELT_HAND_PAUSE_MS: '4000' });

describe('the web client in Chromium', () => {
  let alice: Page;
  let aliceName: string;
  let aliceFrames: Frames;
  let bob: Page;
  let bobFrames: Frames;
  let table: { tableId: string; code: string };
  let firstHand = '';

  it("two players sign up, create and join a room, and play a Hold'em hand to showdown", async () => {
    alice = await newPage(DESKTOP);
    aliceFrames = recordFrames(alice);
    bob = await newPage({ ...PHONE, reducedMotion: 'reduce' });
    bobFrames = recordFrames(bob);
    aliceName = uniqueName('alice');
    await signUp(alice, aliceName);
    await signUp(bob, uniqueName('bob'));

    table = await createRoom(alice, "Hold'em");
    // Bob's lobby picks the new table up by itself.
    await bob.locator(`tr[data-room="${table.code}"]`).waitFor({ timeout: 15_000 });
    expect(await bob.locator(`tr[data-room="${table.code}"]`).textContent()).toContain('1/6');
    await screenshot(bob, 'lobby-phone');
    await joinByCode(bob, table.code, 200);

    // The result shows during the pause between hands: check it (and photograph it) as it appears.
    const result = async (p: Page, name: string) => {
      const showdown = p.getByTestId('showdown');
      await showdown.waitFor({ timeout: 120_000 });
      const winners = await showdown.getByTestId('winner').count();
      // Both players checked and called down: five board cards; the winner's hand is turned up (a loser may muck).
      const board = await p.getByTestId('board').locator('[data-card]:not([data-card="hidden"])').count();
      const shown = await showdown.getByTestId('shown-hand').count();
      await screenshot(p, name);
      return { winners, board, shown };
    };
    const results = Promise.all([result(alice, 'showdown-desktop'), result(bob, 'showdown-phone')]);
    // Awaited below; this only keeps an early failure from being reported twice.
    results.catch(() => undefined);
    firstHand = await playHandToEnd([alice, bob]);
    for (const r of await results) {
      expect(r.winners).toBeGreaterThan(0);
      expect(r.board).toBe(5);
      expect(r.shown).toBeGreaterThanOrEqual(1);
    }

    // Bob never received Alice's hole cards before the showdown turned them up.
    const aliceSeat = Number(await alice.locator('.seat--hero').getAttribute('data-seat'));
    const early = bobFrames.filter((f) => f.type === 'hole_cards_dealt' && f.seat === aliceSeat);
    expect(early).toEqual([]);
  });

  it('the fairness badge turns green when the SDK verifier passes, and the panel shows the seeds', async () => {
    for (const p of [alice, bob]) {
      const badge = p.getByTestId('fairness-badge');
      await waitUntil(
        'the fairness verdict',
        async () => (await badge.getAttribute('data-status')) !== 'pending',
        20_000,
      );
      expect(await badge.getAttribute('data-status')).toBe('verified');
      expect(await badge.getAttribute('data-hand-id')).toBe(firstHand);
    }
    await alice.getByTestId('fairness-badge').click();
    const panel = alice.getByRole('dialog', { name: 'Fairness' });
    await expect.poll(() => panel.getByTestId('fairness-verdict').textContent()).toContain('checks out');
    expect(await panel.getByTestId('dealt-cards').locator('li').count()).toBeGreaterThanOrEqual(9);
    expect(await panel.locator('code.hex').first().textContent()).toMatch(/^sha256:[0-9a-f]{64}$/);
    await screenshot(alice, 'fairness-desktop');
    await panel.getByRole('button', { name: 'Close' }).click();
  });

  it('respects prefers-reduced-motion: chips fly for one player and not for the other', async () => {
    const flights = (p: Page) => p.evaluate(() => (window as unknown as { __flights: number }).__flights);
    expect(await flights(alice)).toBeGreaterThan(0);
    expect(await flights(bob)).toBe(0);
  });

  it('a spectator sees no hole cards, on screen or on the wire', async () => {
    const carol = await newPage(TABLET);
    const frames = recordFrames(carol);
    await signUp(carol, uniqueName('carol'));
    const row = carol.locator(`tr[data-room="${table.code}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('2/6');
    await screenshot(carol, 'lobby-tablet');
    await row.getByRole('link', { name: `Watch room ${table.code}` }).click();
    await carol.waitForURL(`**/#/watch/${table.tableId}`);
    await carol.getByTestId('table').waitFor();
    expect(await carol.getByTestId('table').getAttribute('data-role')).toBe('spectator');
    const hand = await nextHand(carol, firstHand);
    // Mid-hand: every card on the seats is face down and there is no action bar.
    const cards = carol.locator('[data-testid^="cards-"] [data-card]');
    expect(await cards.count()).toBe(4);
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-card')))).toEqual([
      'hidden',
      'hidden',
      'hidden',
      'hidden',
    ]);
    expect(await carol.getByTestId('action-bar').count()).toBe(0);
    await screenshot(carol, 'spectator-tablet');
    // Finish the hand; until it is shown down nothing private reached the spectator's socket.
    await playHandToEnd([alice, bob]);
    const before = frames.filter(
      (f) =>
        !(f.type === 'showdown' || f.type === 'hand_result' || f.type === 'cards_shown' || f.type === 'seed_reveal'),
    );
    expect(before.some((f) => f.type === 'hole_cards_dealt' || f.type === 'your_turn')).toBe(false);
    for (const f of before) {
      const snap = (f.type === 'resync_response' ? f.snapshot : f) as {
        type?: string;
        hand_id?: string;
        phase?: string;
        hero?: unknown;
        seats?: { cards?: (string | null)[] }[];
      };
      if (snap.type !== 'table_state') continue;
      expect(snap.hero).toBeUndefined();
      if (snap.hand_id === hand && snap.phase !== 'complete' && snap.phase !== 'showdown') {
        for (const s of snap.seats ?? []) expect((s.cards ?? []).every((c) => c === null)).toBe(true);
      }
    }
    expect(await smallText(carol)).toEqual([]);
  });

  it('a reload in the middle of a hand restores the same state and, on your turn, the same clock', async () => {
    const previous = await handId(alice);
    await nextHand(alice, previous);
    // Get the turn to Alice (Bob plays passively when it is his).
    await waitUntil('Alice to act', async () => {
      if (await myTurn(bob)) await passiveAction(bob);
      return myTurn(alice);
    });
    const shown = async () => ({
      hand: await alice.getByTestId('table').getAttribute('data-hand-id'),
      deadline: await alice.getByTestId('clock').getAttribute('data-deadline'),
      bank: await alice.getByTestId('clock').getAttribute('data-time-bank'),
      turn: await alice.getByTestId('action-bar').locator('button').allTextContents(),
      seats: await alice.locator('.seat').evaluateAll((els) =>
        els.map((e) => ({
          seat: e.getAttribute('data-seat'),
          text: e.querySelector('.seat__plate')?.textContent,
          cards: Array.from(e.querySelectorAll('[data-card]')).map((c) => c.getAttribute('data-card')),
        })),
      ),
      board: await alice
        .getByTestId('board')
        .locator('[data-card]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-card'))),
      pot: await alice.getByTestId('pot-total').textContent(),
    });
    const before = await shown();
    expect(before.seats.find((x) => x.cards.length > 0 && x.cards.every((c) => c !== 'hidden'))).toBeDefined();
    const snapshotsBefore = aliceFrames.length;
    await alice.reload();
    await alice.getByTestId('action-bar').waitFor();
    expect(await shown()).toEqual(before);
    // On the wire: the snapshot after the reload is the one before it, bar the watermarks and the hash.
    const snapshots = (from: number, to: number) =>
      aliceFrames
        .slice(from, to)
        .map((f) => (f.type === 'resync_response' ? (f.snapshot as Record<string, unknown>) : f))
        .filter((f) => f.type === 'table_state')
        .map(({ ts: _ts, table_seq: _seq, hand_seq: _hs, prev_table_seq: _prev, state_hash: _h, ...rest }) => rest);
    const last = snapshots(0, snapshotsBefore).at(-1);
    const restored = snapshots(snapshotsBefore, aliceFrames.length);
    expect(restored.length).toBeGreaterThan(0);
    for (const r of restored) expect(r).toEqual(last);
    expect((last?.hero as { turn_token?: string } | undefined)?.turn_token).toMatch(/\w{16,}/);
    expect(await alice.getByTestId('connection').getAttribute('data-state')).toBe('live');
    await screenshot(alice, 'table-desktop');
    await screenshot(bob, 'table-phone');
  });

  it('plays by keyboard, and asks before going all-in', async () => {
    expect(await myTurn(alice)).toBe(true);
    await alice.keyboard.press('a');
    const confirm = alice.getByRole('dialog', { name: 'Go all-in?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await myTurn(alice)).toBe(true);
    const turn = await turnId(alice);
    await alice.keyboard.press('c');
    await turnOver(alice, turn);
    await playHandToEnd([alice, bob]);
  });

  it('shows the reconnect indicator when its gateway dies, then resyncs to the same turn', async () => {
    const previous = await handId(alice);
    await nextHand(alice, previous);
    await waitUntil('Alice to act', async () => {
      if (await myTurn(bob)) await passiveAction(bob);
      return myTurn(alice);
    });
    const hand = await handId(alice);
    const deadline = await alice.getByTestId('clock').getAttribute('data-deadline');
    const framesBefore = aliceFrames.length;
    // Record every state the indicator goes through.
    for (const p of [alice, bob]) {
      await p.evaluate(() => {
        const w = window as unknown as { __conn: string[] };
        w.__conn = [];
        new MutationObserver(() => {
          const state = document.querySelector('[data-testid="connection"]')?.getAttribute('data-state');
          if (state === undefined || state === null) return;
          // Nobody may act on a state that is not current: no action bar unless live.
          const entry =
            state !== 'live' && document.querySelector('[data-testid="action-bar"]') !== null
              ? `${state}+actions`
              : state;
          if (w.__conn.at(-1) !== entry) w.__conn.push(entry);
        }).observe(document.body, {
          subtree: true,
          attributes: true,
          attributeFilter: ['data-state'],
          childList: true,
        });
      });
    }
    await suite.env.killFirstGateway();
    for (const p of [alice, bob]) {
      await waitUntil(
        'live again',
        async () => (await p.getByTestId('connection').getAttribute('data-state')) === 'live',
        45_000,
      );
    }
    await alice.getByTestId('action-bar').waitFor();
    expect(await handId(alice)).toBe(hand);
    expect(await alice.getByTestId('clock').getAttribute('data-deadline')).toBe(deadline);
    for (const p of [alice, bob]) {
      const seen = await p.evaluate(() => (window as unknown as { __conn: string[] }).__conn);
      expect(seen[0]).toBe('reconnecting');
      expect(seen.at(-1)).toBe('live');
      expect(seen.filter((x) => x.endsWith('+actions'))).toEqual([]);
    }
    // The SDK resynced after the reconnect, and the snapshot it installed is whole (its hash checked).
    expect(aliceFrames.slice(framesBefore).some((f) => f.type === 'resync_response')).toBe(true);
    await playHandToEnd([alice, bob]);
  });

  it('keeps the text at 11 px or more on desktop and phone', async () => {
    const overflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await smallText(alice)).toEqual([]);
    expect(await smallText(bob)).toEqual([]);
    expect(await overflow(bob)).toBeLessThanOrEqual(0);
    await bob.goto(`${suite.env.origin}/#/`);
    await bob.getByRole('heading', { name: 'Lobby' }).waitFor();
    expect(await smallText(bob)).toEqual([]);
    expect(await overflow(bob)).toBeLessThanOrEqual(0);
    await bob.goto(`${suite.env.origin}/#/table/${table.tableId}`);
    await bob.getByTestId('table').waitFor();
  });

  it('lists finished hands in the history drawer and replays one', async () => {
    await alice.getByRole('button', { name: 'History' }).click();
    const drawer = alice.getByRole('dialog', { name: 'Hand history' });
    const rows = drawer.getByTestId('history-list').locator('button');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await alice.locator(`[data-hand-id="${firstHand}"]`).click();
    const replay = alice.getByRole('dialog', { name: 'Replay' }).getByTestId('replay');
    await replay.waitFor();
    expect(await replay.getByTestId('replay-caption').textContent()).toContain('Before the deal');
    await replay.getByRole('button', { name: 'Last step' }).click();
    expect(await replay.getByTestId('replay-caption').textContent()).toContain('Hand over');
    await screenshot(alice, 'history-desktop');
    await alice.getByRole('dialog', { name: 'Replay' }).getByRole('button', { name: 'Close' }).click();
  });

  it('sits out and back in, and tops up between hands', async () => {
    const tools = (p: Page) => p.getByRole('navigation', { name: 'Table tools' });
    const aliceSeat = await alice.locator('.seat--hero').getAttribute('data-seat');
    await tools(alice).getByRole('button', { name: 'Sit out' }).click();
    await alice.getByRole('status').filter({ hasText: 'You will sit out from the next hand.' }).waitFor();
    await playHandToEnd([alice, bob]);
    const badge = (p: Page) => p.locator(`[data-seat="${aliceSeat}"] .badge`);
    await waitUntil(
      'Alice to be sitting out',
      async () =>
        (await badge(bob)
          .textContent()
          .catch(() => null)) === 'Sitting out',
    );
    expect(await badge(alice).textContent()).toBe('Sitting out');
    expect(await tools(alice).getByRole('button', { name: 'Sit in' }).count()).toBe(1);

    // Nobody is dealt a hand meanwhile: top up whoever is below the maximum of 200.
    const stackOf = async (p: Page) =>
      Number((await p.locator('.seat--hero [data-testid^="stack-"]').textContent())!.replace(/,/g, ''));
    const poorer = (await stackOf(alice)) < (await stackOf(bob)) ? alice : bob;
    const before = await stackOf(poorer);
    await tools(poorer)
      .getByRole('button', { name: /^(Top up|Rebuy)$/ })
      .click();
    const dialog = poorer.getByRole('dialog', { name: /^(Top up|Rebuy)$/ });
    const add = dialog.getByRole('button', { name: 'Add chips' });
    if (before >= 200) {
      expect(await add.isDisabled()).toBe(true);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    } else {
      expect(await dialog.getByLabel('Chips to add').inputValue()).toBe(String(200 - before));
      const wallet = async () => Number((await poorer.getByTestId('wallet').textContent())!.replace(/,/g, ''));
      const walletBefore = await wallet();
      await add.click();
      await poorer
        .getByRole('status')
        .filter({ hasText: `${200 - before} chips` })
        .waitFor();
      // The lobby moved the chips out of the wallet.
      await waitUntil('the wallet to pay', async () => (await wallet()) === walletBefore - (200 - before));
    }

    await tools(alice).getByRole('button', { name: 'Sit in' }).click();
    await alice.getByRole('status').filter({ hasText: 'You will be dealt in from the next hand.' }).waitFor();
    await waitUntil('Alice to be back', async () => (await badge(bob).count()) === 0, 20_000);
    // The next hand deals her in.
    const last = await handId(alice);
    await nextHand(alice, last);
    expect(await alice.locator('.seat--hero [data-card]').count()).toBe(2);
  });

  it('leaves the table and gets the chips back', async () => {
    for (const p of [alice, bob]) {
      await leaveTable(p);
      await p
        .getByRole('status')
        .filter({ hasText: /chips (went|then go) back to your wallet/ })
        .first()
        .waitFor();
    }
    await screenshot(alice, 'lobby-desktop');
  });
});
