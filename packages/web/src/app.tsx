import { useCallback, useEffect, useLayoutEffect, useState } from 'react';
import { t as translate } from './i18n/i18n.js';
import { useT } from './i18n/use-t.js';
import { errorText } from './lib/error-text.js';
import { chips } from './lib/format.js';
import { deckRoute, openTile, sameDeck, type Deck } from './lib/multi-table.js';
import { MAX_TABLES, parseRoute, routeHash, type Route } from './lib/routes.js';
import type { AppState } from './state/app-state.js';
import { AuthScreen } from './ui/auth-screen.js';
import { useStore } from './ui/hooks.js';
import { LanguageSelect } from './ui/language-select.js';
import { LobbyScreen } from './ui/lobby-screen.js';
import { TablesScreen } from './ui/multi-table-screen.js';
import { ToastsView } from './ui/toasts-view.js';
import { WaitlistOffers } from './ui/waitlist-panel.js';
import { WalletScreen } from './ui/wallet-screen.js';

function useRoute(): [Route, (r: Route) => void, (r: Route) => void] {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  const go = useCallback((r: Route) => void (location.hash = routeHash(r)), []);
  // Rewrites the address without a history entry (and without a hashchange).
  const replace = useCallback((r: Route) => {
    const hash = routeHash(r);
    if (location.hash !== hash) history.replaceState(history.state, '', hash);
    setRoute(r);
  }, []);
  return [route, go, replace];
}

/**
 * The open tables follow the address: `#/tables/...` is exactly those tiles, and `#/table/<id>` (what
 * the lobby links to) adds one to those already open, or, with the page full, says so and stays in
 * the lobby. The address is then rewritten to the whole list, so a reload brings every tile back.
 */
function useTables(app: AppState, route: Route, go: (r: Route) => void, replace: (r: Route) => void) {
  const deck = useStore(app.tables);
  useLayoutEffect(() => {
    if (route.name === 'tables') {
      const next = { tiles: route.tiles, focus: route.focus };
      if (!sameDeck(next, app.tables.get())) app.tables.set(next);
    } else if (route.name === 'table') {
      const opened = openTile(app.tables.get(), { tableId: route.tableId, spectate: route.spectate });
      if (!opened.ok) {
        app.toasts.show(translate('tables.full', { max: MAX_TABLES }));
        replace({ name: 'lobby' });
        return;
      }
      if (!sameDeck(opened.deck, app.tables.get())) app.tables.set(opened.deck);
      replace(deckRoute(opened.deck));
    }
  }, [app, route, replace]);
  const onDeck = useCallback(
    (next: Deck, push: boolean) => {
      app.tables.set(next);
      if (push) go(deckRoute(next));
      else replace(deckRoute(next));
    },
    [app, go, replace],
  );
  return { deck, onDeck };
}

export function App({ app }: { readonly app: AppState }) {
  const t = useT();
  const auth = useStore(app.auth);
  const [route, go, replace] = useRoute();
  const { deck, onDeck } = useTables(app, route, go, replace);
  useEffect(() => {
    if (auth.status === 'signed_in') app.startLiveLobby();
  }, [app, auth.status]);

  let screen;
  if (auth.status === 'loading') {
    screen = (
      <main className="splash" aria-busy="true">
        <p className="brand brand--large">{t('app.brand')}</p>
        <p>{t('app.loading')}</p>
      </main>
    );
  } else if (auth.status === 'signed_out') {
    screen = <AuthScreen app={app} />;
  } else if (route.name === 'table' || route.name === 'tables') {
    screen = <TablesScreen app={app} deck={deck} onDeck={onDeck} />;
  } else if (route.name === 'wallet') {
    screen = <WalletScreen app={app} balance={auth.me.wallet} />;
  } else {
    screen = <LobbyScreen app={app} me={auth.me} go={go} route={route} />;
  }

  return (
    <div className="app">
      <a className="skip-link" href="#main-content">
        {t('app.skipToContent')}
      </a>
      {auth.status === 'signed_in' && (
        <header className="app-bar">
          <a className="brand" href="#/" aria-label={t('app.homeLabel')}>
            {t('app.brand')}
          </a>
          {deck.tiles.length > 0 && route.name !== 'table' && route.name !== 'tables' && (
            <a
              className="btn btn--ghost btn--sm app-bar__tables"
              href={routeHash(deckRoute(deck))}
              data-testid="back-to-tables"
            >
              {t('tables.backToTables', { open: deck.tiles.length })}
            </a>
          )}
          <div className="app-bar__me">
            <LanguageSelect app={app} />
            <span className="app-bar__name" data-testid="me-name">
              {auth.me.user.name}
            </span>
            <a
              className="wallet"
              href={routeHash({ name: 'wallet' })}
              aria-label={t('app.walletLabel', { amount: chips(auth.me.wallet) })}
              aria-current={route.name === 'wallet' ? 'page' : undefined}
              data-testid="wallet"
            >
              {chips(auth.me.wallet)}
            </a>
            {auth.me.practice_wallet > 0 && (
              <span className="wallet wallet--practice" data-testid="practice-wallet">
                {t('app.practiceWallet', { amount: chips(auth.me.practice_wallet) })}
              </span>
            )}
            <button
              type="button"
              className="btn btn--ghost"
              onClick={() => {
                app.logout().catch((err: unknown) => app.toasts.show(errorText(err)));
              }}
            >
              {t('app.logOut')}
            </button>
          </div>
        </header>
      )}
      <div id="main-content" className="app__content">
        {auth.status === 'signed_in' && <WaitlistOffers app={app} go={go} />}
        {screen}
      </div>
      <ToastsView toasts={app.toasts} />
    </div>
  );
}
