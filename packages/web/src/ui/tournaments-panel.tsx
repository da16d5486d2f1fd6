import type { LobbyTournamentDetail, LobbyTournamentSummary } from '@felt/client';
import { useEffect, useId, useState } from 'react';
import type { MessageKey } from '../i18n/i18n.js';
import { useT } from '../i18n/use-t.js';
import { errorText } from '../lib/error-text.js';
import { chips, gameShortTitle, gameTitle } from '../lib/format.js';
import { routeHash } from '../lib/routes.js';
import {
  addOnOffer,
  addOnRefusal,
  addOnRuleText,
  anteText,
  blindsText,
  entrantsText,
  entryMarkText,
  formatText,
  levelLengthText,
  playerStatusText,
  priceText,
  reEntryErrorText,
  reEntryText,
  Registration,
  registration,
  startText,
  statusText,
  tournamentStructure,
  TOURNAMENTS_POLL_MS,
} from '../lib/tournaments.js';
import type { AppState } from '../state/app-state.js';
import { ToastKind } from '../state/toasts.js';
import { useStore } from './hooks.js';
import { AddOnPrompt } from './tournament-table.js';

const tournamentHref = (id: string | null): string => routeHash({ name: 'tournaments', tournamentId: id });

/**
 * The lobby's tournaments tab: the list, or the tournament `tournamentId` names. Whichever is shown is
 * read again every few seconds while the page is visible (there is no live feed of tournaments).
 */
export function TournamentsPanel({
  app,
  tournamentId,
  meId,
}: {
  readonly app: AppState;
  readonly tournamentId: string | null;
  /** The signed-in player: marked "(you)" among the entrants. */
  readonly meId: string;
}) {
  const t = useT();
  const list = useStore(app.tournaments.list);
  const detail = useStore(app.tournaments.detail);

  useEffect(() => {
    void app.tournaments.show(tournamentId);
    if (tournamentId === null) void app.tournaments.refreshList();
    const id = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      void (tournamentId === null ? app.tournaments.refreshList() : app.tournaments.refreshDetail());
    }, TOURNAMENTS_POLL_MS);
    return () => clearInterval(id);
  }, [app, tournamentId]);

  if (tournamentId !== null) {
    const shown = detail?.id === tournamentId ? detail : null;
    return (
      <TournamentScreen
        key={tournamentId}
        app={app}
        tournament={shown?.tournament ?? null}
        loadError={shown?.error ?? null}
        meId={meId}
      />
    );
  }
  return (
    <>
      <div className="panel__head">
        <h2 id="tournaments-title">{t('tournaments.title')}</h2>
      </div>
      {list.error !== null && (
        <p className="form__error" role="alert">
          {errorText(list.error)}
        </p>
      )}
      {list.tournaments === null ? (
        list.error === null && <p aria-busy="true">{t('tournaments.loading')}</p>
      ) : list.tournaments.length === 0 ? (
        <p className="muted">{t('tournaments.none')}</p>
      ) : (
        <TournamentsTable tournaments={list.tournaments} />
      )}
      <p id="tournaments-note" className="hint">
        {t('tournaments.refreshNote')}
      </p>
    </>
  );
}

/** What the player asked of the tournament shown. */
export type EntryAction = 'register' | 're_enter' | 'unregister' | 'add_on';

/**
 * One tournament with Register, Unregister or Re-enter, and the add-on while it is on sale to the
 * player; a refusal is said under the button, a success in a toast. A re-entry is a registration (the
 * same call, buy-in and fee again): after it the tournament is read again and seats the player as it
 * seats a late registration (Take your seat). After an add-on it is read again too, and offers none.
 */
function TournamentScreen({
  app,
  tournament,
  loadError,
  meId,
}: {
  readonly app: AppState;
  readonly tournament: LobbyTournamentDetail | null;
  readonly loadError: unknown;
  readonly meId: string;
}) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  // The last refusal and what it answered (a re-entry's or an add-on's tournament_closed says more).
  const [refusal, setRefusal] = useState<{ readonly action: EntryAction; readonly error: unknown } | null>(null);
  if (tournament === null) {
    return (
      <>
        <div className="panel__head">
          <h2 id="tournaments-title">{t('tournaments.title')}</h2>
          <a className="btn btn--ghost btn--sm" href={tournamentHref(null)}>
            {t('tournaments.back')}
          </a>
        </div>
        {loadError !== null ? (
          <p className="form__error" role="alert">
            {errorText(loadError)}
          </p>
        ) : (
          <p aria-busy="true">{t('tournaments.loadingOne')}</p>
        )}
      </>
    );
  }
  const act = async (kind: EntryAction): Promise<void> => {
    setBusy(true);
    setRefusal(null);
    try {
      if (kind === 'register' || kind === 're_enter') {
        // A re-entry is a registration: the same call, only the toast says which.
        await app.tournaments.register(tournament.id);
        const done = kind === 'register' ? 'tournaments.registered' : 'tournaments.reEntered';
        app.toasts.show(t(done, { name: tournament.name }), ToastKind.SUCCESS);
      } else if (kind === 'add_on') {
        const bought = await app.tournaments.addOn(tournament.id);
        app.toasts.show(
          t('tournaments.addOnBought', { name: tournament.name, chips: chips(bought.chips) }),
          ToastKind.SUCCESS,
        );
      } else {
        await app.tournaments.unregister(tournament.id);
        app.toasts.show(t('tournaments.unregistered', { name: tournament.name }), ToastKind.SUCCESS);
      }
    } catch (err) {
      setRefusal({ action: kind, error: err });
      // A refusal often means the tournament moved on (full, started): show it as it is now.
      void app.tournaments.refreshDetail();
    } finally {
      setBusy(false);
    }
  };
  return (
    <TournamentDetail
      tournament={tournament}
      meId={meId}
      busy={busy}
      error={refusal?.error ?? loadError}
      failed={refusal?.action}
      onRegister={() => void act('register')}
      onReEnter={() => void act('re_enter')}
      onUnregister={() => void act('unregister')}
      onAddOn={() => void act('add_on')}
    />
  );
}

/** The tournaments: name (to its detail) and game, format, status, price, field and start. */
export function TournamentsTable({ tournaments }: { readonly tournaments: readonly LobbyTournamentSummary[] }) {
  const t = useT();
  return (
    <table className="rooms tournaments" aria-describedby="tournaments-note" data-testid="tournaments">
      <thead>
        <tr>
          <th scope="col">{t('tournaments.colName')}</th>
          <th scope="col" className="hide-sm">
            {t('tournaments.colFormat')}
          </th>
          <th scope="col">{t('tournaments.colStatus')}</th>
          <th scope="col">{t('tournaments.colBuyIn')}</th>
          <th scope="col">{t('tournaments.colEntrants')}</th>
          <th scope="col">{t('tournaments.colStart')}</th>
        </tr>
      </thead>
      <tbody>
        {tournaments.map((x) => (
          <tr key={x.id} data-tournament={x.id} data-status={x.status}>
            <td>
              <a href={tournamentHref(x.id)} aria-label={t('tournaments.detailsLabel', { name: x.name })}>
                {x.name}
              </a>
              <span className="tournaments__game">{gameShortTitle(x.game, x.limit)}</span>
            </td>
            <td className="hide-sm">{formatText(x.format)}</td>
            <td>{statusText(x.status, x.late_registration_open, x.re_entry_open)}</td>
            <td className="num">{priceText(x.buy_in, x.fee)}</td>
            <td className="num">{entrantsText(x)}</td>
            <td>{x.starts_at === null ? startText(x) : <time dateTime={x.starts_at}>{startText(x)}</time>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * One tournament as the lobby answers it: Take your seat while it seats you at a table (that table,
 * opened as the lobby opens any), the add-on while the lobby says you may buy it (`can_add_on`: what
 * it gives and costs, until when), the facts (game, format, status, price, starting stack, field,
 * start, prize pool, the re-entry rule and the add-on when it has them), Register, Unregister or
 * Re-enter, the structure, the payouts per place and the entrants (one line per entry, a re-entry
 * marked). Buttons call back; a refusal comes in `error` and reads as the catalog's sentence, with
 * `failed` the action it answered (a re-entry's says more; an add-on's is said where the add-on was
 * offered); without `failed`, `error` is a read's failure or another action's refusal.
 */
export function TournamentDetail({
  tournament: d,
  meId,
  busy = false,
  error = null,
  failed,
  onRegister,
  onReEnter,
  onUnregister,
  onAddOn,
}: {
  readonly tournament: LobbyTournamentDetail;
  readonly meId: string;
  readonly busy?: boolean;
  readonly error?: unknown;
  readonly failed?: EntryAction | undefined;
  readonly onRegister: () => void;
  readonly onReEnter: () => void;
  readonly onUnregister: () => void;
  readonly onAddOn: () => void;
}) {
  const t = useT();
  const ids = { structure: useId(), payouts: useId(), players: useId() };
  const structure = tournamentStructure(d.config);
  const reEntry = structure === null ? null : reEntryText(structure.reEntry);
  const addOnRule = addOnRuleText(structure?.addOn ?? null);
  const offer = addOnOffer(d);
  // A refused add-on is said where it was offered, also once the offer is gone (the sale is over).
  const addOnFailed = failed === 'add_on' && error !== null;
  const reg = registration(d, meId);
  return (
    <article className="tournament" data-testid="tournament" data-status={d.status} data-registration={reg}>
      <div className="panel__head">
        <h2 id="tournaments-title">{d.name}</h2>
        <a className="btn btn--ghost btn--sm" href={tournamentHref(null)}>
          {t('tournaments.back')}
        </a>
      </div>

      {d.your_table_id !== null && (
        <div className="tournament__seat" data-testid="tournament-seat">
          <p>{t('tournaments.takeSeatHint')}</p>
          <a
            className="btn btn--primary"
            href={routeHash({ name: 'table', tableId: d.your_table_id, spectate: false })}
            aria-label={t('tournaments.takeSeatLabel', { name: d.name })}
            data-testid="take-seat"
          >
            {t('tournaments.takeSeat')}
          </a>
        </div>
      )}

      {(offer !== null || addOnFailed) && (
        <div className="tournament__add-on" data-testid="tournament-add-on">
          {offer !== null && <AddOnPrompt offer={offer} busy={busy} clock={Date.now} onBuy={onAddOn} />}
          {addOnFailed && (
            <p className="form__error" role="alert" data-testid="add-on-error">
              {addOnRefusal(error).text}
            </p>
          )}
        </div>
      )}

      <dl className="tournament__facts" aria-label={t('tournaments.facts')}>
        <div>
          <dt>{t('tournaments.game')}</dt>
          <dd>{gameTitle(d.game, d.limit)}</dd>
        </div>
        <div>
          <dt>{t('tournaments.formatLabel')}</dt>
          <dd>{formatText(d.format)}</dd>
        </div>
        <div>
          <dt>{t('tournaments.statusLabel')}</dt>
          <dd data-testid="tournament-status">{statusText(d.status, d.late_registration_open, d.re_entry_open)}</dd>
        </div>
        <div>
          <dt>{t('tournaments.buyIn')}</dt>
          <dd>
            {d.fee > 0
              ? t('tournaments.buyInFee', { buyIn: chips(d.buy_in), fee: chips(d.fee) })
              : priceText(d.buy_in, d.fee)}
          </dd>
        </div>
        <div>
          <dt>{t('tournaments.startingStack')}</dt>
          <dd>{chips(d.starting_stack)}</dd>
        </div>
        <div>
          <dt>{t('tournaments.field')}</dt>
          <dd data-testid="tournament-entrants">
            {d.format === 'sit_and_go' || d.min_entrants === d.max_entrants
              ? t('tournaments.fieldSitAndGo', { entrants: chips(d.entrants), max: chips(d.max_entrants) })
              : t('tournaments.fieldRange', {
                  entrants: chips(d.entrants),
                  min: chips(d.min_entrants),
                  max: chips(d.max_entrants),
                })}
          </dd>
        </div>
        <div>
          <dt>{t('tournaments.starts')}</dt>
          <dd>{d.starts_at === null ? startText(d) : <time dateTime={d.starts_at}>{startText(d)}</time>}</dd>
        </div>
        <div>
          <dt>{t('tournaments.prizePool')}</dt>
          <dd data-testid="tournament-pool">{chips(d.prize_pool)}</dd>
        </div>
        {reEntry !== null && (
          <div>
            <dt>{t('tournaments.reEntry')}</dt>
            <dd data-testid="tournament-re-entry">{reEntry}</dd>
          </div>
        )}
        {addOnRule !== null && (
          <div>
            <dt>{t('tournaments.addOn')}</dt>
            <dd data-testid="tournament-add-on-rule">{addOnRule}</dd>
          </div>
        )}
      </dl>

      <div className="tournament__register">
        {(reg === Registration.REGISTER || reg === Registration.RE_ENTER) && (
          <BuyIn
            kind={reg}
            name={d.name}
            price={priceText(d.buy_in, d.fee)}
            busy={busy}
            onClick={reg === Registration.REGISTER ? onRegister : onReEnter}
          />
        )}
        {reg === Registration.UNREGISTER && (
          <>
            <span className="tournament__registered">{t('tournaments.youAreRegistered')}</span>
            <button
              type="button"
              className="btn btn--secondary"
              disabled={busy}
              aria-busy={busy}
              onClick={onUnregister}
              aria-label={t('tournaments.unregisterLabel', { name: d.name })}
            >
              {t('tournaments.unregister')}
            </button>
          </>
        )}
        {reg === Registration.FULL && <span className="muted">{t('tournaments.full')}</span>}
        {reg === Registration.CLOSED && <span className="muted">{t('tournaments.closed')}</span>}
        {error !== null && !addOnFailed && (
          <p className="form__error" role="alert" data-testid="tournament-error">
            {failed === 're_enter' ? reEntryErrorText(error) : errorText(error)}
          </p>
        )}
      </div>

      <div className="tournament__grid">
        <section aria-labelledby={ids.structure}>
          <h3 id={ids.structure}>{t('tournaments.structure')}</h3>
          {structure === null ? (
            <p className="muted">{t('tournaments.structureUnavailable')}</p>
          ) : (
            <>
              <table className="rooms tournament__structure" data-testid="tournament-structure">
                <thead>
                  <tr>
                    <th scope="col">{t('tournaments.colLevel')}</th>
                    <th scope="col" className="num">
                      {t('tournaments.colBlinds')}
                    </th>
                    <th scope="col" className="num">
                      {t('tournaments.colAnte')}
                    </th>
                    <th scope="col" className="num">
                      {t('tournaments.colLength')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {structure.rows.map((row, i) =>
                    row.kind === 'level' ? (
                      <tr key={i} data-level={row.level}>
                        <th scope="row">{row.level}</th>
                        <td className="num">{blindsText(row)}</td>
                        <td className="num">{anteText(row)}</td>
                        <td className="num">{levelLengthText(structure.length)}</td>
                      </tr>
                    ) : (
                      <tr key={i} className="tournament__break" data-break="true">
                        <td colSpan={4}>{t('tournaments.breakRow', { count: row.minutes })}</td>
                      </tr>
                    ),
                  )}
                </tbody>
              </table>
              <p className="hint">{t('tournaments.afterLast')}</p>
            </>
          )}
        </section>

        <div className="tournament__side">
          <section aria-labelledby={ids.payouts}>
            <h3 id={ids.payouts}>{t('tournaments.payouts')}</h3>
            {d.payouts.length === 0 ? (
              <p className="muted">{t('tournaments.noPayouts')}</p>
            ) : (
              <table className="rooms tournament__payouts" data-testid="tournament-payouts">
                <thead>
                  <tr>
                    <th scope="col">{t('tournaments.colPlace')}</th>
                    <th scope="col" className="num">
                      {t('tournaments.colPrize')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {d.payouts.map((p) => (
                    <tr key={p.place} data-place={p.place}>
                      <th scope="row">{p.place}</th>
                      <td className="num">{chips(p.amount)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <p className="hint">{t('tournaments.payoutsNote')}</p>
          </section>

          <section aria-labelledby={ids.players}>
            <h3 id={ids.players}>{t('tournaments.players', { total: chips(d.players.length) })}</h3>
            {d.players.length === 0 ? (
              <p className="muted">{t('tournaments.noPlayers')}</p>
            ) : (
              <ul className="seat-list tournament__players" data-testid="tournament-players">
                {d.players.map((p) => {
                  const mark = entryMarkText(p);
                  return (
                    <li key={`${p.user_id}:${p.entry_no}`} className="seat-list__item" data-status={p.status}>
                      <span>
                        {p.user_id === meId ? t('common.youSuffix', { name: p.name }) : p.name}
                        {mark !== null && (
                          <>
                            {' '}
                            <span className="tag" data-testid="entry-mark">
                              {mark}
                            </span>
                          </>
                        )}
                      </span>
                      <span className="muted">{playerStatusText(p)}</span>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </div>
      </div>
    </article>
  );
}

/** Register and Re-enter's words: the same call (buy-in and fee), a re-entry with a hint before it. */
const BUY_IN = {
  [Registration.REGISTER]: { text: 'tournaments.register', label: 'tournaments.registerLabel', hint: null },
  [Registration.RE_ENTER]: {
    text: 'tournaments.reEnter',
    label: 'tournaments.reEnterLabel',
    hint: 'tournaments.reEnterHint',
  },
} as const satisfies Record<string, { text: MessageKey; label: MessageKey; hint: MessageKey | null }>;

/** Register, or Re-enter after its hint: the button names the tournament and its price to a screen reader. */
function BuyIn({
  kind,
  name,
  price,
  busy,
  onClick,
}: {
  readonly kind: keyof typeof BUY_IN;
  readonly name: string;
  readonly price: string;
  readonly busy: boolean;
  readonly onClick: () => void;
}) {
  const t = useT();
  const words = BUY_IN[kind];
  return (
    <>
      {words.hint !== null && <span className="muted">{t(words.hint)}</span>}
      <button
        type="button"
        className="btn btn--primary"
        disabled={busy}
        aria-busy={busy}
        onClick={onClick}
        aria-label={t(words.label, { name, price })}
      >
        {t(words.text)}
      </button>
    </>
  );
}
