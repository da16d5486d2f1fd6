import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { t } from '../i18n/i18n.js';
import { useT } from '../i18n/use-t.js';
import { ClockPhase, readClock } from '../lib/clock.js';
import { chips, clockText, GameFamily } from '../lib/format.js';
import type { Point } from '../lib/seat-layout.js';
import type { SeatModel, TableModel } from '../lib/table-model.js';
import { Card, CardSlot } from './card.js';
import { useNow } from './hooks.js';

interface FeltProps {
  readonly model: TableModel;
  readonly serverNow: () => number;
  /** The room's action clock, ms, for the countdown bar's scale. */
  readonly actionMs: number;
  readonly reducedMotion: boolean;
  /** Draw games: the hero's cards picked for discarding. */
  readonly selected?: ReadonlySet<number> | undefined;
  readonly onToggleCard?: ((index: number) => void) | undefined;
}

interface Flight {
  readonly id: number;
  readonly from: Point;
  readonly to: Point;
  readonly amount: number;
}

const CENTER: Point = { x: 50, y: 46 };
const FLIGHT_MS = 700;

/**
 * Chips moving: bets swept into the pot when a street ends, and pots pushed to the winners when a
 * hand is settled. Derived from consecutive models, so they play for live events only, never for a
 * reload or resync that installs a whole snapshot at once. None with reduced motion.
 */
function useChipFlights(model: TableModel, reducedMotion: boolean): Flight[] {
  const prev = useRef<TableModel | null>(null);
  const nextId = useRef(1);
  const [flights, setFlights] = useState<Flight[]>([]);
  useEffect(() => {
    const before = prev.current;
    prev.current = model;
    if (reducedMotion || before === null || before.handId === null) return;
    const added: Flight[] = [];
    if (before.handId === model.handId) {
      const streetEnded = before.street !== model.street || (model.showdown !== null && before.showdown === null);
      if (streetEnded) {
        for (const s of before.seats) {
          if (s.bet > 0) added.push({ id: nextId.current++, from: s.betAt, to: CENTER, amount: s.bet });
        }
      }
      if (model.showdown !== null && before.showdown === null) {
        for (const pot of model.showdown.pots) {
          for (const w of pot.winners) {
            const seat = model.seats.find((s) => s.seat === w.seat);
            if (seat) added.push({ id: nextId.current++, from: CENTER, to: seat.plate, amount: w.amount });
          }
        }
      }
    }
    if (added.length === 0) return;
    setFlights((f) => [...f, ...added]);
    const ids = new Set(added.map((a) => a.id));
    const t = setTimeout(() => setFlights((f) => f.filter((x) => !ids.has(x.id))), FLIGHT_MS * 2);
    return () => clearTimeout(t);
  }, [model, reducedMotion]);
  return flights;
}

export function Felt({ model, serverNow, actionMs, reducedMotion, selected, onToggleCard }: FeltProps) {
  useT();
  const flights = useChipFlights(model, reducedMotion);
  const boardGame = model.game.family === GameFamily.BOARD;
  const boardSlots = model.game.variant.game === 'shortdeck' || boardGame ? 5 : 0;
  return (
    <div className="felt-wrap">
      <div
        className={`felt felt--${model.seats.length > 6 ? 'many' : 'few'}`}
        role="region"
        aria-label={t('felt.tableLabel', { title: model.game.title })}
      >
        <div className="felt__rail" aria-hidden="true" />
        <div className="felt__center">
          <PotView model={model} />
          {boardSlots > 0 && (
            <div
              className="board"
              role="group"
              aria-label={model.board.length === 0 ? t('felt.boardEmpty') : t('felt.board')}
              data-testid="board"
            >
              {Array.from({ length: boardSlots }, (_, i) => {
                const c = model.board[i];
                return c !== undefined ? <Card key={i} code={c} size="lg" /> : <CardSlot key={i} size="lg" />;
              })}
            </div>
          )}
          <p className="felt__status" data-testid="table-status">
            {statusLine(model)}
          </p>
          {model.phase === 'dealing' && model.dealing?.progress != null && <BlindProgressBar model={model} />}
        </div>
        {model.seats.map((s) => (
          <SeatView
            key={s.seat}
            seat={s}
            model={model}
            serverNow={serverNow}
            actionMs={actionMs}
            selected={s.isHero ? selected : undefined}
            onToggleCard={s.isHero ? onToggleCard : undefined}
          />
        ))}
        {model.seats
          .filter((s) => s.bet > 0)
          .map((s) => (
            <div
              key={`bet-${s.seat}`}
              className="bet"
              style={{ left: `${s.betAt.x}%`, top: `${s.betAt.y}%` }}
              aria-label={t('felt.betLabel', {
                name: s.name ?? t('common.seat', { seat: s.seat }),
                amount: chips(s.bet),
              })}
              data-testid={`bet-${s.seat}`}
            >
              <span className="chip" aria-hidden="true" />
              {chips(s.bet)}
            </div>
          ))}
        {flights.map((f) => (
          <span
            key={f.id}
            className="chip chip--flight"
            aria-hidden="true"
            style={
              {
                '--from-x': `${f.from.x}%`,
                '--from-y': `${f.from.y}%`,
                '--to-x': `${f.to.x}%`,
                '--to-y': `${f.to.y}%`,
                animationDuration: `${FLIGHT_MS}ms`,
              } as CSSProperties
            }
          />
        ))}
      </div>
    </div>
  );
}

function statusLine(model: TableModel): string {
  switch (model.phase) {
    case 'waiting': {
      const seated = model.seats.filter((s) => !s.empty).length;
      return seated < 2 ? t('felt.waitingPlayers') : t('felt.waitingNextHand');
    }
    case 'seeding':
      return t('felt.shuffling');
    case 'dealing':
      // Engine-blind: the players' own devices key, shuffle and open the cards.
      return model.dealing?.progress?.text ?? t('blind.dealing');
    case 'showdown':
      return t('felt.showdown');
    case 'complete':
      return t('felt.handOver');
    default:
      return model.street;
  }
}

/**
 * An engine-blind hand's keys or shuffles done, as a bar under the status line that says the same in
 * words (the bar is not read aloud); its data attributes are the browser tests' hooks.
 */
function BlindProgressBar({ model }: { readonly model: TableModel }) {
  const p = model.dealing?.progress;
  if (p == null) return null;
  return (
    <div
      className={`blind-progress blind-progress--${p.step}${p.heroOwes ? ' blind-progress--hero' : ''}`}
      data-testid="blind-progress"
      data-step={p.step}
      data-done={p.done}
      data-total={p.total}
      data-waiting={p.waitingFor.join(' ')}
      aria-hidden="true"
    >
      {p.total > 0 && (
        <span className="blind-progress__fill" style={{ width: `${Math.round((100 * p.done) / p.total)}%` }} />
      )}
    </div>
  );
}

function PotView({ model }: { readonly model: TableModel }) {
  if (model.potTotal === 0 && model.pots.length === 0) return <div className="pots" />;
  return (
    <div className="pots" data-testid="pots">
      <p className="pots__total" aria-label={t('felt.totalPot', { amount: chips(model.potTotal) })}>
        {t('felt.pot')} <strong data-testid="pot-total">{chips(model.potTotal)}</strong>
      </p>
      {model.pots.length > 1 && (
        <ul className="pots__list">
          {model.pots.map((p) => (
            <li key={p.label}>{t('felt.potLine', { pot: p.label, amount: chips(p.amount) })}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The seat's whole state for a screen reader: "Seat 3, alice, 1,200 chips, dealer, to act". */
function seatLabel(s: SeatModel): string {
  if (s.empty) return t('felt.seatEmpty', { seat: s.seat });
  const parts = [t('common.seat', { seat: s.seat }), s.name ?? '', t('common.chips', { amount: chips(s.stack) })];
  if (s.isHero) parts.push(t('felt.seatYou'));
  if (s.isButton) parts.push(t('felt.seatDealer'));
  if (s.blind !== null) parts.push(t(`felt.blind.${s.blind}`));
  if (s.statusLabel !== null) parts.push(s.statusLabel.toLowerCase());
  if (s.folded) parts.push(t('felt.seatFolded'));
  if (s.allIn) parts.push(t('felt.seatAllIn'));
  if (s.isActor) parts.push(t('felt.seatToAct'));
  return parts.filter(Boolean).join(t('common.listSeparator'));
}

function SeatView({
  seat: s,
  model,
  serverNow,
  actionMs,
  selected,
  onToggleCard,
}: {
  readonly seat: SeatModel;
  readonly model: TableModel;
  readonly serverNow: () => number;
  readonly actionMs: number;
  readonly selected: ReadonlySet<number> | undefined;
  readonly onToggleCard: ((index: number) => void) | undefined;
}) {
  const cls = [
    'seat',
    s.empty ? 'seat--empty' : '',
    s.isHero ? 'seat--hero' : '',
    s.isActor ? 'seat--actor' : '',
    s.folded ? 'seat--folded' : '',
    s.won !== null && s.won > 0 ? 'seat--winner' : '',
    s.statusLabel !== null ? `seat--${s.status}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const stud = model.game.family === GameFamily.STUD;
  return (
    <div
      className={cls}
      style={{ left: `${s.plate.x}%`, top: `${s.plate.y}%` }}
      role="group"
      aria-label={seatLabel(s)}
      data-seat={s.seat}
      data-testid={`seat-${s.seat}`}
    >
      {s.cards.length > 0 && (
        <div className={`seat__cards${stud ? ' seat__cards--stud' : ''}`} data-testid={`cards-${s.seat}`}>
          {s.cards.map((c, i) =>
            onToggleCard !== undefined && c.code !== null ? (
              <button
                key={i}
                type="button"
                className={`card-toggle${selected?.has(i) === true ? ' card-toggle--selected' : ''}`}
                aria-pressed={selected?.has(i) === true}
                onClick={() => onToggleCard(i)}
              >
                <Card code={c.code} up={c.up} size={s.isHero ? 'md' : 'sm'} />
                <span className="visually-hidden">{selected?.has(i) === true ? t('felt.toDiscard') : ''}</span>
              </button>
            ) : (
              <Card
                key={i}
                code={c.code}
                up={stud && c.up}
                privateDown={stud && !c.up && c.code !== null}
                size={s.isHero ? 'md' : 'sm'}
                dim={s.folded}
              />
            ),
          )}
        </div>
      )}
      <div className="seat__plate">
        {s.empty ? (
          <span className="seat__name muted">{t('felt.empty')}</span>
        ) : (
          <>
            <span className="seat__name">
              {s.name}
              {s.bot && <span className="tag">{t('felt.bot')}</span>}
            </span>
            <span className="seat__stack" data-testid={`stack-${s.seat}`}>
              {s.allIn ? t('felt.allIn') : chips(s.stack)}
            </span>
          </>
        )}
        {s.statusLabel !== null && <span className={`badge badge--${s.status}`}>{s.statusLabel}</span>}
        {s.isButton && (
          <span className="dealer-button" title={t('felt.dealerButton')} aria-hidden="true">
            {t('felt.dealerMark')}
          </span>
        )}
        {(s.blind === 'SB' || s.blind === 'BB') && (
          <span className="blind-tag" aria-hidden="true">
            {t(`felt.blindTag.${s.blind}`)}
          </span>
        )}
      </div>
      {s.isActor && model.clock !== null && (
        <SeatClock
          deadline={model.clock.deadline}
          timeBankMs={model.clock.timeBankMs}
          serverNow={serverNow}
          actionMs={actionMs}
          hero={s.isHero}
        />
      )}
      {!s.isActor && s.lastAction !== null && !s.folded && <span className="seat__action">{s.lastAction}</span>}
      {s.folded && <span className="seat__action seat__action--fold">{t('felt.folded')}</span>}
      {s.won !== null && s.won > 0 && <span className="seat__won">+{chips(s.won)}</span>}
      {s.handNames.length > 0 && <span className="seat__hand">{s.handNames.join(' · ')}</span>}
    </div>
  );
}

function SeatClock({
  deadline,
  timeBankMs,
  serverNow,
  actionMs,
  hero,
}: {
  readonly deadline: number;
  readonly timeBankMs: number;
  readonly serverNow: () => number;
  readonly actionMs: number;
  readonly hero: boolean;
}) {
  const now = useNow(serverNow, 250);
  const c = readClock(deadline, timeBankMs, now, actionMs);
  const label =
    c.phase === ClockPhase.ACTION
      ? t('felt.clockAction', { action: clockText(c.remainingMs), bank: clockText(c.bankMs) })
      : c.phase === ClockPhase.BANK
        ? t('felt.clockBank', { time: clockText(c.remainingMs) })
        : t('felt.clockExpired');
  return (
    <div
      className={`clock clock--${c.phase}${hero ? ' clock--hero' : ''}`}
      role="timer"
      aria-label={label}
      data-testid="clock"
      data-deadline={deadline}
      data-time-bank={timeBankMs}
    >
      <span className="clock__bar" style={{ transform: `scaleX(${c.fraction})` }} aria-hidden="true" />
      <span className="clock__text" aria-hidden="true">
        {c.phase === ClockPhase.BANK
          ? t('felt.clockBankShort', { time: clockText(c.remainingMs) })
          : clockText(c.remainingMs)}
      </span>
      {c.phase === ClockPhase.ACTION && timeBankMs > 0 && (
        <span className="clock__bank" aria-hidden="true">
          +{clockText(timeBankMs)}
        </span>
      )}
    </div>
  );
}
