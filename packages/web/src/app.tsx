import { useEffect, useState } from 'react';
import { useT } from './i18n/use-t.js';
import { errorText } from './lib/error-text.js';
import { chips } from './lib/format.js';
import { parseRoute, routeHash, type Route } from './lib/routes.js';
import type { AppState } from './state/app-state.js';
import { AuthScreen } from './ui/auth-screen.js';
import { useStore } from './ui/hooks.js';
import { LanguageSelect } from './ui/language-select.js';
import { LobbyScreen } from './ui/lobby-screen.js';
import { TableScreen } from './ui/table-screen.js';
import { ToastsView } from './ui/toasts-view.js';
import { WaitlistOffers } from './ui/waitlist-panel.js';
import { WalletScreen } from './ui/wallet-screen.js';

function useRoute(): [Route, (r: Route) => void] {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return [route, (r) => void (location.hash = routeHash(r))];
}

export function App({ app }: { readonly app: AppState }) {
  const t = useT();
  const auth = useStore(app.auth);
  const [route, go] = useRoute();
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
  } else if (route.name === 'table') {
    screen = (
      <TableScreen
        key={`${route.tableId}:${route.spectate}`}
        app={app}
        tableId={route.tableId}
        spectate={route.spectate}
        onExit={() => go({ name: 'lobby' })}
      />
    );
  } else if (route.name === 'wallet') {
    screen = <WalletScreen app={app} balance={auth.me.wallet} />;
  } else {
    screen = <LobbyScreen app={app} me={auth.me} go={go} />;
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
