// Playing a tournament in Chromium against a real cluster (the workers look for due tournaments every
// 200 ms): a player registers in the tab, the operator brings the start forward, and the tournament's
// detail offers Take your seat; at the table the tournament line shows the level, its countdown, the
// field and the player's place, and the controls a tournament refuses are gone. The other players are
// SDK bots following their seats with TournamentSeat. Heads-up, the player plays to a result and sees
// their place and prize, then the final standings; six-handed on tables of five, the player's table
// breaks after a bust there, and the page follows the move to the other table without a reload.
import {
  FeltClient,
  headerWebSocketFactory,
  LobbyClient,
  TournamentSeat,
  type TableSession,
  type TurnInfo,
} from '@felt/client';
import { createTournament, newTournament } from '@felt/db';
import { parseTournamentConfig, type TournamentConfigInput, type ValidActionsView } from '@felt/protocol';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DESKTOP, screenshot } from './support/browser.js';
import { newPage, PASSWORD, signUp, turnId, turnOver, uniqueName, waitUntil, webSuite } from './support/web-suite.js';

const suite = webSuite({
  FELT_TOURNAMENT_POLL_MS: '200',
  FELT_HAND_PAUSE_MS: '300',
  FELT_SEED_WINDOW_MS: '200',
});

const DAY_MS = 24 * 3600_000;

async function tournament(input: Partial<TournamentConfigInput>): Promise<string> {
  const config = parseTournamentConfig({
    name: `Play ${uniqueName('')}`,
    format: 'scheduled',
    // A day ahead: it takes registrations until the test brings the start forward.
    startsAt: new Date(Date.now() + DAY_MS).toISOString(),
    buyIn: 100,
    fee: 0,
    startingStack: 1_000,
    structure: {
      levels: [{ bigBlind: 20 }, { bigBlind: 40, ante: 5 }],
      levelLength: { unit: 'minutes', value: 10 },
      breaks: null,
    },
    ...input,
  });
  const { id } = await createTournament(suite.env.cluster.db.prisma, newTournament(config, null));
  return id;
}

/** Starts it now, as an operator would: the worker that owns it starts it at its next look. */
async function startNow(id: string): Promise<void> {
  await suite.env.cluster.db.prisma.tournament.update({ where: { id }, data: { startsAt: new Date() } });
}

/** How a bot plays a turn: all-in whenever it may (else call, else check), or check-or-fold. */
type Style = 'shove' | 'passive';

function decide(valid: ValidActionsView, style: Style) {
  if (style === 'shove') {
    if (valid.all_in !== null) return { action: 'all_in' as const };
    if (valid.call !== null) return { action: 'call' as const };
  }
  if (valid.check) return { action: 'check' as const };
  return valid.fold ? { action: 'fold' as const } : { action: 'call' as const };
}

interface Bot {
  readonly userId: string;
  readonly lobby: LobbyClient;
  stop(): void;
}

const bots: Bot[] = [];

afterEach(() => {
  for (const b of bots.splice(0)) b.stop();
});

/** A player on the SDK: signs up, registers, and follows their seat, playing each table by `style`. */
async function bot(tournamentId: string, style: (tableId: string) => Style): Promise<Bot> {
  const lobby = new LobbyClient({ baseUrl: suite.env.cluster.lobby!.url });
  const me = await lobby.signup(uniqueName('tb'), PASSWORD);
  await lobby.registerTournament(tournamentId);
  const client = new FeltClient({
    gatewayUrls: [suite.env.cluster.gateways[0]!.wsUrl],
    socketFactory: headerWebSocketFactory(WebSocket, { cookie: lobby.cookie! }),
    pingIntervalMs: 0,
  });
  client.connect();
  const seat = new TournamentSeat(client, lobby, tournamentId, { userId: me.user.id, pollMs: 200, checkMs: 2_000 });
  const play = (session: TableSession, turn: TurnInfo): void => {
    session.act(decide(turn.validActions, style(session.tableId))).catch(() => undefined);
  };
  seat.on('seated', (session) => {
    session.on('turn', (turn) => play(session, turn));
    if (session.turn !== null) play(session, session.turn);
  });
  seat.start();
  const b: Bot = {
    userId: me.user.id,
    lobby,
    stop: () => {
      seat.stop();
      client.close();
    },
  };
  bots.push(b);
  return b;
}

/** The player's turn, if it is theirs: checks when free, else calls (all-in confirmed) or folds. */
async function act(page: Page, style: 'call' | 'fold'): Promise<void> {
  const turn = await turnId(page);
  if (turn === null) return;
  const bar = page.getByTestId('action-bar');
  const check = bar.getByRole('button', { name: /^Check/ });
  const call = bar.getByRole('button', { name: /^Call/ });
  if (await check.isVisible()) await check.click();
  else if (style === 'fold') await bar.getByRole('button', { name: /^Fold/ }).click();
  else {
    const button = (await call.isVisible()) ? call : bar.getByRole('button', { name: /^All-in/ });
    const allIn = /all-in/i.test((await button.textContent()) ?? '');
    await button.click();
    if (allIn) {
      const confirm = page.getByRole('dialog', { name: 'Go all-in?' });
      await confirm.getByRole('button', { name: 'All-in' }).click();
    }
  }
  await turnOver(page, turn);
}

/** Registers from the tournament's detail, and waits there for the start: Take your seat. */
async function registerAndTakeSeat(page: Page, id: string, beforeStart: () => Promise<void>): Promise<string> {
  await page.goto(`${suite.env.origin}/#/tournaments/${id}`);
  const detail = page.getByTestId('tournament');
  await detail.waitFor();
  await page.getByRole('button', { name: /^Register for / }).click();
  await waitUntil('the registration', async () => (await detail.getAttribute('data-registration')) === 'unregister');
  await beforeStart();
  await startNow(id);
  // The detail is read again every 5 s: the seat appears once the director has drawn the tables.
  const take = page.getByTestId('take-seat');
  await take.waitFor({ timeout: 30_000 });
  await screenshot(page, 'tournament-take-seat-desktop');
  await take.click();
  await page.waitForURL(/#\/table\/[0-9a-f-]+$/);
  await page.getByTestId('tournament-bar').waitFor();
  return /#\/table\/([0-9a-f-]+)$/.exec(page.url())![1]!;
}

const tableTools = (page: Page) => page.getByRole('navigation', { name: 'Table tools' });

describe('playing a tournament', () => {
  it('heads-up: Take your seat, the tournament line, no refused controls, then your place and prize and the final standings', async () => {
    const id = await tournament({ entrants: { min: 2, max: 2 } });
    const page = await newPage(DESKTOP);
    await signUp(page, uniqueName('tp'));
    let bob: Bot | undefined;
    const tableId = await registerAndTakeSeat(page, id, async () => {
      bob = await bot(id, () => 'shove');
    });
    // The lobby seats the player at this very table.
    const detail = await bob!.lobby.getTournament(id);
    expect(detail.status).toBe('running');
    expect(detail.players.find((p) => p.user_id !== bob!.userId)?.table_id).toBe(tableId);

    const bar = page.getByTestId('tournament-bar');
    expect(await bar.getAttribute('data-level')).toBe('1');
    expect(await page.getByTestId('tournament-level').textContent()).toBe('Level 1 10/20');
    expect(await page.getByTestId('tournament-field').textContent()).toBe('Players 2/2');
    // Two equal stacks share first place.
    expect(await page.getByTestId('tournament-place').textContent()).toBe('Your place 1 of 2');
    const clock = page.getByTestId('tournament-clock');
    const first = (await clock.textContent()) ?? '';
    expect(first).toMatch(/^Next level in (9|10):\d\d$/);
    await waitUntil('the countdown to move', async () => ((await clock.textContent()) ?? '') !== first, 5_000);
    // Nothing a tournament refuses is offered; the lobby is.
    const tools = tableTools(page);
    for (const refused of ['Sit out', 'Leave', 'Top up', 'Rebuy']) {
      expect(await tools.getByRole('button', { name: refused }).count(), refused).toBe(0);
    }
    expect(await tools.getByRole('button', { name: 'Lobby' }).count()).toBe(1);
    await screenshot(page, 'tournament-table-desktop');

    // Bob shoves every hand; the player calls everything: a hand or two decides it.
    const result = page.getByTestId('tournament-result');
    await waitUntil(
      'the tournament to end for the player',
      async () => {
        if (await result.isVisible()) return true;
        await act(page, 'call');
        return false;
      },
      120_000,
    );
    const done = await bob!.lobby.getTournament(id);
    const mine = done.players.find((p) => p.user_id !== bob!.userId)!;
    expect(mine.place).not.toBeNull();
    expect(await result.getAttribute('data-place')).toBe(String(mine.place));
    expect(await result.getAttribute('data-prize')).toBe(String(mine.prize));
    expect(await result.getByRole('heading').textContent()).toBe(
      mine.place === 1 ? 'You won the tournament!' : 'You are out of the tournament',
    );
    expect(await result.textContent()).toContain(`You finished in place ${mine.place} of 2.`);
    await screenshot(page, 'tournament-result-desktop');

    // The final standings: every place, and no seat to take.
    await result.getByRole('link', { name: 'Tournament details' }).click();
    await page.waitForURL(new RegExp(`#/tournaments/${id}$`));
    const players = page.getByTestId('tournament-players');
    await waitUntil('the final places', async () => {
      const text = (await players.textContent()) ?? '';
      return text.includes('Place 1, won 200') && /Place 2(?!,)/.test(text);
    });
    expect(await page.getByTestId('take-seat').count()).toBe(0);
    await screenshot(page, 'tournament-standings-desktop');
  });

  it('six on tables of five: a bust breaks the player’s table, and the page follows the move in place', async () => {
    const id = await tournament({ seats: 5, entrants: { min: 2, max: 6 } });
    const page = await newPage(DESKTOP);
    // What the page sends: the new table is joined before the old one is left.
    const sent: { type?: string; table_id?: string }[] = [];
    page.on('websocket', (ws) =>
      ws.on('framesent', ({ payload }) => {
        if (typeof payload === 'string') sent.push(JSON.parse(payload) as { type?: string; table_id?: string });
      }),
    );
    await signUp(page, uniqueName('tp'));
    // At the player's table the two bots shove into each other (the player folds): one of them busts
    // and the table, now the smallest, breaks. At the other table nobody ever calls: nobody busts.
    let playerTable: string | null = null;
    const style = (tableId: string): Style => (tableId === playerTable ? 'shove' : 'passive');
    const tableId = await registerAndTakeSeat(page, id, async () => {
      for (let i = 0; i < 5; i++) await bot(id, style);
    });
    playerTable = tableId;
    expect(await page.getByTestId('tournament-field').textContent()).toBe('Players 6/6');

    const moved = page.getByText('You were moved to another table.');
    let toastSeen = false;
    await waitUntil(
      'the move to another table',
      async () => {
        toastSeen ||= await moved.isVisible();
        if (!page.url().endsWith(`/table/${tableId}`)) return true;
        await act(page, 'fold');
        return false;
      },
      120_000,
    );
    const to = /#\/table\/([0-9a-f-]+)$/.exec(page.url())?.[1];
    expect(to).toBeDefined();
    expect(to).not.toBe(tableId);
    await waitUntil('the move’s toast', async () => (toastSeen ||= await moved.isVisible()), 5_000);
    // One table on the page, the new one, with the tournament line; the lobby seats the player there.
    await waitUntil(
      'the new table',
      async () => (await page.getByTestId('table').getAttribute('data-table-id')) === to,
    );
    await page.getByTestId('tournament-bar').waitFor();
    // The table's word on the field comes between its hands: the bust shows there soon after.
    await waitUntil(
      'the field after the bust',
      async () => {
        if ((await page.getByTestId('tournament-field').textContent()) === 'Players 5/6') return true;
        await act(page, 'fold');
        return false;
      },
      60_000,
    );
    expect(await page.getByTestId('tournament-place').count()).toBe(1);
    const seatedAt = await page.evaluate(
      async (t) => ((await (await fetch(`/api/tournaments/${t}`)).json()) as { your_table_id: string }).your_table_id,
      id,
    );
    expect(seatedAt).toBe(to);
    const joinNew = sent.findIndex((f) => f.type === 'join_table' && f.table_id === to);
    const leaveOld = sent.findIndex((f) => f.type === 'leave_table' && f.table_id === tableId);
    expect(joinNew).toBeGreaterThan(-1);
    expect(leaveOld).toBeGreaterThan(joinNew);
    await screenshot(page, 'tournament-moved-desktop');
  });
  it('late registration: a running tournament is listed as open, Register joins it as it plays, and Take your seat leads to the table', async () => {
    const id = await tournament({ entrants: { min: 2, max: 6 }, lateRegistrationLevels: 2 });
    const [first] = [await bot(id, () => 'passive'), await bot(id, () => 'passive')];
    await startNow(id);
    await waitUntil('the start', async () => (await first.lobby.getTournament(id)).status === 'running', 30_000);

    const page = await newPage(DESKTOP);
    await signUp(page, uniqueName('tl'));
    const wallet = async () => Number(((await page.getByTestId('wallet').textContent()) ?? '').replace(/[^\d]/g, ''));
    const before = await wallet();
    await page.getByRole('tab', { name: 'Tournaments' }).click();
    const row = page.locator(`[data-testid="tournaments"] tr[data-tournament="${id}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('running');
    expect((await row.locator('td').allTextContents())[2]).toBe('Running, late registration open');

    await page.goto(`${suite.env.origin}/#/tournaments/${id}`);
    const detail = page.getByTestId('tournament');
    await detail.waitFor();
    expect(await detail.getAttribute('data-registration')).toBe('register');
    await page.getByRole('button', { name: /^Register for / }).click();
    // In: nothing to take back while it runs, and the buy-in left the wallet.
    await waitUntil('the late registration', async () => (await detail.getAttribute('data-registration')) === 'closed');
    await waitUntil('the wallet to pay the buy-in', async () => (await wallet()) === before - 100);
    const take = page.getByTestId('take-seat');
    await take.waitFor({ timeout: 30_000 });
    await take.click();
    await page.waitForURL(/#\/table\/[0-9a-f-]+$/);
    await page.getByTestId('tournament-bar').waitFor();
    expect(await page.getByTestId('tournament-field').textContent()).toBe('Players 3/3');
    await screenshot(page, 'tournament-late-registration-desktop');
  });
});
