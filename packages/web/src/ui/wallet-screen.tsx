import { useCallback, useEffect, useRef, useState } from 'react';
import { Trans } from 'react-i18next';
import { useT } from '../i18n/use-t.js';
import { errorText } from '../lib/error-text.js';
import { chips, dateTimeText, signedChips } from '../lib/format.js';
import { appendPage, walletKindText, type WalletEntry } from '../lib/wallet-history.js';
import type { AppState } from '../state/app-state.js';

interface Props {
  readonly app: AppState;
  /** The wallet now, from /api/me (the header shows the same). */
  readonly balance: number;
}

/** Every movement of the player's wallet from the lobby, newest first, a page at a time. */
export function WalletScreen({ app, balance }: Props) {
  const t = useT();
  const [entries, setEntries] = useState<readonly WalletEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    void app.refreshMe();
    app
      .walletHistoryPage()
      .then((p) => {
        if (!live.current) return;
        setEntries(p.entries);
        setNext(p.next);
        setError(null);
      })
      .catch((err: unknown) => live.current && setError(errorText(err)));
    return () => {
      live.current = false;
    };
  }, [app]);

  const older = useCallback((): void => {
    if (next === null || loadingOlder) return;
    setLoadingOlder(true);
    app
      .walletHistoryPage(next)
      .then((p) => {
        if (!live.current) return;
        setEntries((shown) => appendPage(shown ?? [], p));
        setNext(p.next);
      })
      .catch((err: unknown) => live.current && setError(errorText(err)))
      .finally(() => live.current && setLoadingOlder(false));
  }, [app, next, loadingOlder]);

  return (
    <main className="lobby wallet-page" aria-labelledby="wallet-title">
      <div className="lobby__head">
        <h1 id="wallet-title">{t('wallet.title')}</h1>
        <a className="btn btn--ghost" href="#/">
          {t('common.backToLobby')}
        </a>
      </div>
      <section className="panel">
        <p className="wallet-page__balance" data-testid="wallet-balance">
          {t('wallet.balance', { amount: chips(balance) })}
        </p>
        <p className="muted">{t('wallet.lead')}</p>
        {error !== null && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        {entries === null ? (
          error === null && <p aria-busy="true">{t('wallet.loading')}</p>
        ) : entries.length === 0 ? (
          <p className="muted">{t('wallet.empty')}</p>
        ) : (
          <>
            <WalletEntries entries={entries} />
            {next !== null && (
              <button
                type="button"
                className="btn btn--ghost btn--block"
                onClick={older}
                disabled={loadingOlder}
                aria-busy={loadingOlder}
              >
                {loadingOlder ? t('wallet.loadingOlder') : t('wallet.older')}
              </button>
            )}
          </>
        )}
      </section>
    </main>
  );
}

/** The movements as a table: when, what (and at which room), the signed amount and the balance after it. */
export function WalletEntries({ entries }: { readonly entries: readonly WalletEntry[] }) {
  const t = useT();
  return (
    <table className="rooms wallet-history" data-testid="wallet-history">
      <thead>
        <tr>
          <th scope="col">{t('wallet.colWhen')}</th>
          <th scope="col">{t('wallet.colWhat')}</th>
          <th scope="col" className="num">
            {t('wallet.colAmount')}
          </th>
          <th scope="col" className="num">
            {t('wallet.colBalance')}
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id} data-kind={e.kind}>
            <td>
              <time dateTime={e.at}>{dateTimeText(e.at)}</time>
            </td>
            <td>
              {walletKindText(e.kind)}
              {e.room !== null && (
                <span className="wallet-history__room">
                  <Trans
                    i18nKey="wallet.room"
                    values={{ code: e.room.code }}
                    components={{ code: <span className="mono" /> }}
                  />
                </span>
              )}
            </td>
            <td className={`num ${e.amount > 0 ? 'net--up' : e.amount < 0 ? 'net--down' : ''}`}>
              {signedChips(e.amount)}
            </td>
            <td className="num">{chips(e.balance)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
