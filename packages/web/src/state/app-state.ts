import { FeltClient, LobbyApiError, LobbyClient, type HandDetail, type HistoryPage, type LobbyMe } from '@felt/client';
import { errorText } from '../lib/error-text.js';
import { Store } from './store.js';
import { ToastKind, Toasts } from './toasts.js';

export type AuthState =
  | { readonly status: 'loading' }
  | { readonly status: 'signed_out' }
  | { readonly status: 'signed_in'; readonly me: LobbyMe };

/**
 * What the whole page shares: the lobby's HTTP API (same origin, so the browser carries the
 * HttpOnly session cookie), the signed-in user, toasts, and one SDK client for every table.
 */
export class AppState {
  readonly lobby = new LobbyClient({ baseUrl: '' });
  readonly toasts = new Toasts();
  readonly auth = new Store<AuthState>({ status: 'loading' });
  private client: FeltClient | null = null;
  private clientStarting: Promise<FeltClient> | null = null;

  /** Finds out whether the cookie still holds a session. */
  async init(): Promise<void> {
    try {
      const me = await this.lobby.me();
      this.auth.set({ status: 'signed_in', me });
    } catch (err) {
      this.auth.set({ status: 'signed_out' });
      if (!(err instanceof LobbyApiError && err.status === 401)) this.toasts.show(errorText(err));
    }
  }

  async signup(name: string, password: string): Promise<void> {
    await this.lobby.signup(name, password);
    await this.refreshMe();
  }

  async login(name: string, password: string): Promise<void> {
    await this.lobby.login(name, password);
    await this.refreshMe();
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
      const me = await this.lobby.me();
      const current = this.auth.get();
      // Polled with the lobby list: an unchanged answer keeps the same value, so nothing re-renders.
      if (current.status === 'signed_in' && JSON.stringify(current.me) === JSON.stringify(me)) return current.me;
      this.auth.set({ status: 'signed_in', me });
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

  historyPage(cursor?: string): Promise<HistoryPage> {
    return this.lobby.hands({ pageSize: 20, ...(cursor !== undefined ? { cursor } : {}) });
  }

  handDetail(handId: string): Promise<HandDetail> {
    return this.lobby.hand(handId);
  }

  private sessionEnded(): void {
    this.stopClient();
    if (this.auth.get().status === 'signed_in') {
      this.toasts.show('Your session has ended. Log in again.', ToastKind.INFO);
    }
    this.auth.set({ status: 'signed_out' });
  }

  private stopClient(): void {
    this.client?.close();
    this.client = null;
  }
}
