import { useT } from '../i18n/use-t.js';
import { chips } from '../lib/format.js';
import { routeHash } from '../lib/routes.js';
import {
  fieldText,
  levelClock,
  levelClockText,
  levelStakesText,
  levelText,
  placeText,
  resultPlaceText,
  resultPrizeText,
  resultTitle,
  type TournamentResult,
  type TournamentSeatState,
} from '../lib/tournament-table.js';
import { addOnBuyText, addOnUntilText, type AddOnOffer } from '../lib/tournaments.js';
import type { TournamentView } from '@felt/protocol';
import { useNow } from './hooks.js';

const detailHref = (id: string): string => routeHash({ name: 'tournaments', tournamentId: id });

/**
 * A tournament table's line under the table bar: the tournament (a link to its detail), the level
 * with its blinds and ante, the time to the next level (a live countdown, the break's end, or
 * "levels by hands"), the next level's blinds, the average stack, the players left, your place, and
 * hand-for-hand on the money bubble. `serverNow` is the table's server clock and `serverOffsetMs`
 * its distance from this browser's (the break's end is shown in local time); `compact` (a tile)
 * leaves out the next level and the average.
 */
export function TournamentHeader({
  tournament,
  serverNow,
  serverOffsetMs = 0,
  compact = false,
}: {
  readonly tournament: TournamentSeatState;
  readonly serverNow: () => number;
  readonly serverOffsetMs?: number;
  readonly compact?: boolean;
}) {
  const t = useT();
  const v = tournament.view;
  const now = useNow(serverNow, 1_000);
  const clock = levelClock(v, now);
  return (
    <div
      className={`tournament-bar${compact ? ' tournament-bar--compact' : ''}`}
      role="group"
      aria-label={t('tournamentTable.region')}
      data-testid="tournament-bar"
      data-level={v.level.number}
      data-hand-for-hand={v.hand_for_hand}
    >
      <a
        className="tournament-bar__name"
        href={detailHref(v.tournament_id)}
        aria-label={t('tournamentTable.detailsLabel', { name: v.name })}
      >
        {v.name}
      </a>
      <span className="tournament-bar__level" data-testid="tournament-level">
        <strong>{levelText(v.level)}</strong> {levelStakesText(v.level)}
      </span>
      <span
        className={`tournament-bar__clock tournament-bar__clock--${clock.kind}`}
        data-testid="tournament-clock"
        data-kind={clock.kind}
      >
        {levelClockText(clock, serverOffsetMs)}
      </span>
      {!compact && v.next_level !== null && clock.kind !== 'over' && (
        <span className="tournament-bar__next">
          {t('tournamentTable.next', { stakes: levelStakesText(v.next_level) })}
        </span>
      )}
      {!compact && (
        <span className="tournament-bar__average">
          {t('tournamentTable.average', { amount: chips(v.average_stack) })}
        </span>
      )}
      <span className="tournament-bar__field" data-testid="tournament-field">
        {fieldText(v)}
      </span>
      {tournament.place !== null && (
        <span className="tournament-bar__place" data-testid="tournament-place" data-place={tournament.place}>
          {placeText(tournament.place, v)}
        </span>
      )}
      {v.hand_for_hand && (
        <span className="badge tournament-bar__hfh" title={t('tournamentTable.handForHandHint')}>
          {t('tournamentTable.handForHand')}
        </span>
      )}
    </div>
  );
}

/**
 * Your place and prize once you are out or have won, with the way to the tournament's detail (its
 * final places) and back to the lobby.
 */
export function TournamentResultPanel({
  result,
  view,
  onExit,
  compact = false,
}: {
  readonly result: TournamentResult;
  readonly view: Pick<TournamentView, 'tournament_id' | 'entrants'>;
  readonly onExit: () => void;
  readonly compact?: boolean;
}) {
  const t = useT();
  return (
    <section
      className={`tournament-result${result.place === 1 ? ' tournament-result--won' : ''}${compact ? ' tournament-result--compact' : ''}`}
      role="status"
      aria-label={t('tournamentTable.results')}
      data-testid="tournament-result"
      data-place={result.place}
      data-prize={result.prize}
    >
      <h2 className="tournament-result__title">{resultTitle(result)}</h2>
      <p className="tournament-result__place">{resultPlaceText(result, view.entrants)}</p>
      <p className="tournament-result__prize">{resultPrizeText(result)}</p>
      <div className="tournament-result__actions">
        <a className="btn btn--primary" href={detailHref(view.tournament_id)} data-testid="tournament-result-details">
          {t('tournamentTable.details')}
        </a>
        {!compact && (
          <button type="button" className="btn btn--ghost" onClick={onExit}>
            {t('common.backToLobby')}
          </button>
        )}
      </div>
    </section>
  );
}

/**
 * The add-on on sale to the player: until when (a live countdown on `clock`, the clock the offer's end
 * is on, `offsetMs` ahead of this browser's: the end is shown in local time) and **Buy the add-on**
 * with its chips and cost, waiting while the purchase is on its way (`busy`). Gone once the sale's end
 * has passed. At a tournament table during a break, where the hero's line is (on the table's server
 * clock), and in the tournament's detail (on this browser's, `Date.now`: the lobby's detail carries no
 * server time). `compact` (a tile) leaves out the sentence before the time.
 */
export function AddOnPrompt({
  offer,
  busy,
  clock,
  offsetMs = 0,
  compact = false,
  onBuy,
}: {
  readonly offer: AddOnOffer;
  readonly busy: boolean;
  readonly clock: () => number;
  readonly offsetMs?: number;
  readonly compact?: boolean;
  readonly onBuy: () => void;
}) {
  const t = useT();
  const now = useNow(clock, 1_000, offer.until !== null);
  if (offer.until !== null && now >= offer.until) return null;
  const until = addOnUntilText(offer.until, now, offsetMs);
  return (
    <div
      className={`tournament-add-on${compact ? ' tournament-add-on--compact' : ''}`}
      role="group"
      aria-label={t('tournaments.addOn')}
      data-testid="add-on-prompt"
    >
      <p>
        {!compact && <>{t('tournaments.addOnHint')} </>}
        {offer.until === null ? until : <time dateTime={new Date(offer.until).toISOString()}>{until}</time>}
      </p>
      <button
        type="button"
        className="btn btn--primary"
        disabled={busy}
        aria-busy={busy}
        onClick={onBuy}
        data-testid="add-on"
      >
        {addOnBuyText(offer)}
      </button>
    </div>
  );
}
