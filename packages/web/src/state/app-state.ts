import { FeltClient, LobbyApiError, LobbyClient, type HandDetail, type HistoryPage, type LobbyMe } from '@felt/client';
import {
  applyLocale,
  currentLocale,
  isLocale,
  LOCALE_STORAGE_KEY,
  localeFromBrowser,
  t,
  type Locale,
} from '../i18n/i18n.js';
import type { WaitlistMessage } from '@felt/protocol';
import { errorText } from '../lib/error-text.js';
import { EMPTY_DECK, type Deck } from '../lib/multi-table.js';
import { parseWalletHistoryPage, walletHistoryPath, type WalletHistoryPage } from '../lib/wallet-history.js';
import { SoundCue } from '../lib/sound-cues.js';
import { LiveLobby } from './live-lobby.js';
import { SoundBoard } from './sound.js';
import { Store } from './store.js';
import { ToastKind, Toasts } from './toasts.js';
import { Tournaments } from './tournaments.js';
import { Waitlists } from './waitlists.js';

export type AuthState =
  | { readonly status: 'loading' }
  | { readonly status: 'signed_out' }
  | { readonly status: 'signed_in'; readonly me: LobbyMe };

/** What the page reads from the browser: kept apart so tests can give their own. */
export interface BrowserEnv {
  /** navigator.languages, most preferred first. */
  readonly languages: readonly string[];
  readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

function browserEnv(): BrowserEnv {
  const nav = typeof navigator !== 'undefined' ? navigator : undefined;
  let storage: BrowserEnv['storage'] = null;
  try {
    storage = typeof localStorage !== 'undefined' ? localStorage : null;
  } catch {
    // Storage disabled (a sandboxed frame, strict privacy settings): the choice lasts for this page.
  }
  return { languages: nav?.languages ?? (nav?.language ? [nav.language] : []), storage };
}

/**
 * What the whole page shares: the lobby's HTTP API (same origin, so the browser carries the
 * HttpOnly session cookie), the signed-in user, the page's language, toasts, and one SDK client for
 * every table.
 */
export class AppState {
  readonly lobby = new LobbyClient({ baseUrl: '' });
  readonly toasts = new Toasts();
  readonly auth = new Store<AuthState>({ status: 'loading' });
  /**
   * The tables open in this page and the one in focus (lib/multi-table.ts). The URL holds them too;
   * this copy outlives a visit to the lobby, so a table opened there joins the others.
   */
  readonly tables = new Store<Deck>(EMPTY_DECK);
  /** Turn and warning cues for every table, and the mute choice kept in this browser. */
  readonly sound: SoundBoard;
  /**
   * The lobby list and the wallet over the WebSocket, on for as long as someone is signed in (not
   * only on the lobby screen): the header's wallet is on every screen, and subscribing on each visit
   * to the lobby would buy a fresh list each time (and meet the gateway's one-a-second limit).
   */
  readonly liveLobby = new LiveLobby((balance) => this.walletChanged(balance));
  /** The rooms the player waits for a seat at, kept current over the same socket. */
  readonly waitlists = new Waitlists(this.lobby, (message) => this.waitlistNotice(message));
  /** The lobby's tournaments tab: the list, the tournament shown, and registrations (the wallet follows). */
  readonly tournaments = new Tournaments(this.lobby, (balance) => this.walletChanged(balance));
  private liveLobbyStarting = false;
  private client: FeltClient | null = null;
  private clientStarting: Promise<FeltClient> | null = null;
  /** Language changes sent to the lobby and not answered yet: until then a polled /api/me is stale. */
  private localeWrites = 0;
  /** Counts language changes, so an /api/me answer asked for before the latest one is not obeyed. */
  private localeEpoch = 0;

  constructor(private readonly env: BrowserEnv = browserEnv()) {
    this.sound = new SoundBoard(env.storage);
    // Before anyone signs in: this browser's last choice, else its languages.
    const stored = this.storedLocale();
    applyLocale(stored ?? localeFromBrowser(env.languages));
  }

  /** Finds out whether the cookie still holds a session. */
  async init(): Promise<void> {
    try {
      const me = await this.lobby.me();
      this.auth.set({ status: 'signed_in', me });
      this.adoptAccountLocale(me, true);
    } catch (err) {
      this.auth.set({ status: 'signed_out' });
      if (!(err instanceof LobbyApiError && err.status === 401)) this.toasts.show(errorText(err));
    }
  }

  async signup(name: string, password: string): Promise<void> {
    await this.lobby.signup(name, password);
    const me = await this.refreshMe();
    if (me !== null) this.adoptAccountLocale(me, true);
  }

  async login(name: string, password: string): Promise<void> {
    await this.lobby.login(name, password);
    const me = await this.refreshMe();
    if (me !== null) this.adoptAccountLocale(me, true);
  }

  /**
   * The player picked a language: the page switches at once, this browser remembers it, and a
   * signed-in account keeps it (PATCH /api/me) so every browser it signs in on speaks it.
   */
  async setLocale(locale: Locale): Promise<void> {
    applyLocale(locale);
    this.storeLocale(locale);
    this.localeEpoch++;
    const auth = this.auth.get();
    if (auth.status !== 'signed_in') return;
    this.localeWrites++;
    try {
      const me = await this.lobby.updateMe({ locale });
      const current = this.auth.get();
      if (current.status === 'signed_in') this.auth.set({ status: 'signed_in', me });
    } catch (err) {
      this.toasts.show(errorText(err));
    } finally {
      this.localeWrites--;
    }
  }

  /**
   * After sign-in the account's choice wins. An account that has none yet takes the one made in this
   * browser (on the sign-in page, say) when `adoptLocal` is set.
   */
  private adoptAccountLocale(me: LobbyMe, adoptLocal: boolean): void {
    if (this.localeWrites > 0) return;
    if (me.locale !== null) {
      if (me.locale !== currentLocale()) applyLocale(me.locale);
      this.storeLocale(me.locale);
      return;
    }
    const stored = this.storedLocale();
    if (adoptLocal && stored !== null) void this.setLocale(stored);
  }

  private storedLocale(): Locale | null {
    try {
      const value = this.env.storage?.getItem(LOCALE_STORAGE_KEY);
      return isLocale(value) ? value : null;
    } catch {
      return null;
    }
  }

  private storeLocale(locale: Locale): void {
    try {
      this.env.storage?.setItem(LOCALE_STORAGE_KEY, locale);
    } catch {
      // Storage full or disabled: the account (when signed in) still keeps the choice.
    }
  }

  async logout(): Promise<void> {
    try {
      await this.lobby.logout();
    } catch (err) {
      // Signed out anyway if the session was already gone.
      if (!(err instanceof LobbyApiError && err.status === 401)) throw err;
    }
    this.stopClient();
    this.auth.set({ status: 'signed_out' });
  }

  /** Reloads the user, wallet and seats (after a join, a leave, a top-up). */
  async refreshMe(): Promise<LobbyMe | null> {
    try {
      const epoch = this.localeEpoch;
      const me = await this.lobby.me();
      const current = this.auth.get();
      // Polled with the lobby list: an unchanged answer keeps the same value, so nothing re-renders.
      if (current.status === 'signed_in' && JSON.stringify(current.me) === JSON.stringify(me)) return current.me;
      this.auth.set({ status: 'signed_in', me });
      // A choice made in another browser reaches this one with the next poll.
      if (current.status === 'signed_in' && epoch === this.localeEpoch) this.adoptAccountLocale(me, false);
      return me;
    } catch (err) {
      if (err instanceof LobbyApiError && err.status === 401) this.sessionEnded();
      else this.toasts.show(errorText(err));
      return null;
    }
  }

  /** The SDK client, connected on first use with the gateway URLs the lobby hands out. */
  feltClient(): Promise<FeltClient> {
    if (this.client !== null) return Promise.resolve(this.client);
    this.clientStarting ??= (async () => {
      try {
        const urls = await this.lobby.gatewayUrls();
        const client = new FeltClient({ gatewayUrls: urls });
        client.on('close', (c) => {
          if (c.fatal) this.sessionEnded();
        });
        client.connect();
        this.client = client;
        return client;
      } finally {
        this.clientStarting = null;
      }
    })();
    return this.clientStarting;
  }

  /** Signed in: the live lobby on the page's one FeltClient (connected now if no table did yet). */
  startLiveLobby(): void {
    if (this.liveLobbyStarting || this.auth.get().status !== 'signed_in') return;
    this.liveLobbyStarting = true;
    this.feltClient()
      .then((client) => {
        if (this.auth.get().status === 'signed_in' && this.client === client) {
          this.liveLobby.start(client);
          this.waitlists.start(client);
        }
      })
      .catch(() => {
        // No gateway URLs now: the lobby screen keeps polling, and the next sign-in tries again.
      })
      .finally(() => {
        this.liveLobbyStarting = false;
      });
  }

  /**
   * The live lobby's wallet: the header shows it at once. A balance that moved means chips went to or
   * came from a table (a buy-in, a cash-out, a refund) or a tournament entry, so the seats are read
   * again too.
   */
  private walletChanged(balance: number): void {
    const current = this.auth.get();
    if (current.status !== 'signed_in' || current.me.wallet === balance) return;
    this.auth.set({ status: 'signed_in', me: { ...current.me, wallet: balance } });
    void this.refreshMe();
  }

  historyPage(cursor?: string): Promise<HistoryPage> {
    return this.lobby.hands({ pageSize: 20, ...(cursor !== undefined ? { cursor } : {}) });
  }

  handDetail(handId: string): Promise<HandDetail> {
    return this.lobby.hand(handId);
  }

  /** A page of the wallet's movements, newest first; the next (older) one with the previous `next`. */
  async walletHistoryPage(cursor?: string): Promise<WalletHistoryPage> {
    return parseWalletHistoryPage(await this.lobby.request<unknown>('GET', walletHistoryPath(cursor)));
  }

  private sessionEnded(): void {
    this.stopClient();
    if (this.auth.get().status === 'signed_in') {
      this.toasts.show(t('app.sessionEnded'), ToastKind.INFO);
    }
    this.auth.set({ status: 'signed_out' });
  }

  /** A seat held for the player is announced wherever they are; a lapsed offer or a closed room is said. */
  private waitlistNotice(message: WaitlistMessage): void {
    if (message.status === 'offered') this.sound.play(SoundCue.TURN);
    if (message.status === 'lapsed') this.toasts.show(t('waitlist.lapsed', { code: message.code }), ToastKind.INFO);
    if (message.status === 'closed') this.toasts.show(t('waitlist.closed', { code: message.code }), ToastKind.INFO);
  }

  private stopClient(): void {
    this.tables.set(EMPTY_DECK);
    this.liveLobby.stop();
    this.waitlists.stop();
    this.tournaments.reset();
    this.client?.close();
    this.client = null;
  }
}
