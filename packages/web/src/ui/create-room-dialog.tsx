import { newCommandId } from '@felt/client';
import { BETTING_LIMITS, GAME_TYPES, isMixedGame, type BettingLimit, type GameType } from '@felt/protocol';
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { errorText } from '../lib/error-text.js';
import { chips, gameName, limitName } from '../lib/format.js';
import {
  checkRoomForm,
  defaultsFor,
  EMPTY_ROOM_FORM,
  hasFixedLimit,
  hasStudFixedLimit,
  SHOWDOWN_LABELS,
  STAKE_LABELS,
  stakeFields,
  toConfigInput,
  type RoomForm,
  type ShowdownField,
} from '../lib/room-form.js';
import type { AppState } from '../state/app-state.js';
import { Dialog } from './dialog.js';

interface Props {
  readonly app: AppState;
  readonly open: boolean;
  readonly onClose: () => void;
  readonly onCreated: (tableId: string) => void;
}

/** The full room config: game, limit, stakes, seats, buy-in, clock, rake, start rules, bots, rotation. */
export function CreateRoomDialog({ app, open, onClose, onCreated }: Props) {
  const [form, setForm] = useState<RoomForm>(EMPTY_ROOM_FORM);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const check = useMemo(() => checkRoomForm(form), [form]);
  const defaults = useMemo(() => defaultsFor(form.game, form.limit), [form.game, form.limit]);
  const set = <K extends keyof RoomForm>(key: K, value: RoomForm[K]): void => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setSubmitted(true);
    if (check.config === null || check.issues.size > 0) return;
    setBusy(true);
    setServerError(null);
    try {
      const created = await app.lobby.createRoom(
        {
          config: toConfigInput(form),
          ...(form.sit && check.sitBuyIn !== null ? { sit: { buy_in: check.sitBuyIn } } : {}),
        },
        newCommandId(),
      );
      setForm(EMPTY_ROOM_FORM);
      setSubmitted(false);
      onCreated(created.session_id);
    } catch (err) {
      setServerError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const issue = (path: string): string | undefined =>
    submitted || form !== EMPTY_ROOM_FORM ? check.issues.get(path) : undefined;
  const mixed = isMixedGame(form.game);
  const d = defaults;

  return (
    <Dialog open={open} title="Create a room" onClose={onClose} className="dialog--wide">
      <form className="form room-form" onSubmit={(e) => void submit(e)} noValidate>
        <fieldset>
          <legend>Game</legend>
          <div className="form__row">
            <Select
              label="Game"
              value={form.game}
              onChange={(v) => setForm((f) => ({ ...f, game: v as GameType, stakes: {} }))}
              options={GAME_TYPES.map((g) => [g, gameName(g)])}
            />
            {!mixed && (
              <Select
                label="Limit"
                value={form.limit}
                onChange={(v) => set('limit', v as BettingLimit | '')}
                options={[
                  ['', `Usual (${d ? limitName(d.limit) : ''})`],
                  ...BETTING_LIMITS.map((l): [string, string] => [l, limitName(l)]),
                ]}
              />
            )}
            <NumberField
              label="Seats"
              value={form.seats}
              onChange={(v) => set('seats', v)}
              placeholder={d ? String(d.seats) : ''}
              error={issue('seats')}
            />
          </div>
          {mixed && (
            <NumberField
              label="Hands per game"
              value={form.handsPerVariant}
              onChange={(v) => set('handsPerVariant', v)}
              placeholder={d?.rotation ? String(d.rotation.handsPerVariant) : ''}
              error={issue('rotation.handsPerVariant')}
              hint={d?.rotation ? `Rotation: ${d.rotation.order.map((e) => gameName(e.game)).join(', ')}` : undefined}
            />
          )}
        </fieldset>

        <fieldset>
          <legend>Stakes</legend>
          <div className="form__row">
            {stakeFields(form.game, form.limit).map((f) => (
              <NumberField
                key={f}
                label={STAKE_LABELS[f]}
                value={form.stakes[f] ?? ''}
                onChange={(v) => setForm((x) => ({ ...x, stakes: { ...x.stakes, [f]: v } }))}
                placeholder={d ? String(d.stakes[f]) : ''}
                error={issue(`stakes.${f}`)}
              />
            ))}
          </div>
          <div className="form__row">
            <NumberField
              label="Minimum buy-in"
              value={form.buyInMin}
              onChange={(v) => set('buyInMin', v)}
              placeholder={check.config ? String(check.config.buyIn.min) : ''}
              error={issue('buyIn.min')}
            />
            <NumberField
              label="Maximum buy-in"
              value={form.buyInMax}
              onChange={(v) => set('buyInMax', v)}
              placeholder={check.config ? String(check.config.buyIn.max) : ''}
              error={issue('buyIn.max')}
            />
          </div>
        </fieldset>

        <fieldset>
          <legend>Clock</legend>
          <div className="form__row">
            <NumberField
              label="Seconds to act"
              value={form.actionSeconds}
              onChange={(v) => set('actionSeconds', v)}
              placeholder={d ? String(d.clock.actionSeconds) : ''}
              error={issue('clock.actionSeconds')}
            />
            <NumberField
              label="Time bank (s)"
              value={form.timeBankSeconds}
              onChange={(v) => set('timeBankSeconds', v)}
              placeholder={d ? String(d.clock.timeBankSeconds) : ''}
              error={issue('clock.timeBankSeconds')}
            />
            <NumberField
              label="Warning at (s)"
              value={form.warningSeconds}
              onChange={(v) => set('warningSeconds', v)}
              placeholder={d ? String(d.clock.warningSeconds) : ''}
              error={issue('clock.warningSeconds')}
            />
          </div>
        </fieldset>

        <fieldset>
          <legend>Rake</legend>
          <div className="form__row">
            <NumberField
              label="Rake %"
              value={form.rakePercent}
              onChange={(v) => set('rakePercent', v)}
              placeholder="0"
              step="0.01"
              error={issue('rake.percent')}
            />
            <NumberField
              label="Cap (chips)"
              value={form.rakeCap}
              onChange={(v) => set('rakeCap', v)}
              placeholder="0 (none)"
              error={issue('rake.cap')}
            />
            <NumberField
              label="Heads-up %"
              value={form.rakeHeadsUp}
              onChange={(v) => set('rakeHeadsUp', v)}
              placeholder="same"
              step="0.01"
              error={issue('rake.headsUpPercent')}
            />
          </div>
          <Check label="No flop, no drop" checked={form.noFlopNoDrop} onChange={(v) => set('noFlopNoDrop', v)} />
        </fieldset>

        <fieldset>
          <legend>Table</legend>
          <Check
            label="Deal automatically when enough players are ready"
            checked={form.autoStart}
            onChange={(v) => set('autoStart', v)}
          />
          <Check
            label="Let me start a hand myself"
            checked={form.hostMayForceStart}
            onChange={(v) => set('hostMayForceStart', v)}
          />
          <Check label="Fill empty seats with bots" checked={form.botFill} onChange={(v) => set('botFill', v)} />
          {form.botFill && (
            <NumberField
              label="Players to fill up to"
              value={form.botTarget}
              onChange={(v) => set('botTarget', v)}
              placeholder="2"
              error={issue('botFill.targetPlayers')}
            />
          )}
          <Check
            label="List it in the lobby (otherwise join by code only)"
            checked={form.listed}
            onChange={(v) => set('listed', v)}
          />
        </fieldset>

        <details className="room-form__rules">
          <summary>House rules</summary>
          <fieldset>
            <legend>Betting</legend>
            <div className="form__row">
              <Select
                label="Big blind all-in for less"
                value={form.shortAllInBlind}
                onChange={(v) => set('shortAllInBlind', v as RoomForm['shortAllInBlind'])}
                options={[
                  ['full_blind', 'The full blind is the bet to call'],
                  ['posted', 'What was posted is the bet to call'],
                ]}
              />
              <Select
                label="Odd chips of a split pot"
                value={form.oddChips}
                onChange={(v) => set('oddChips', v as RoomForm['oddChips'])}
                options={[
                  ['one_each', 'One each, clockwise from the button'],
                  ['first_winner', 'All to the first winner from the button'],
                ]}
              />
              <Select
                label="Bets and raises per round"
                value={form.raiseCap}
                onChange={(v) => set('raiseCap', v)}
                options={[
                  ['default', 'Usual (4 in fixed limit, no cap otherwise)'],
                  ['none', 'No cap'],
                  ...['2', '3', '4', '5', '6', '8', '10'].map((n): [string, string] => [n, n]),
                ]}
              />
            </div>
            {hasStudFixedLimit(form.game, form.limit) && (
              <Check
                label="Stud: an open pair on fourth street allows the big bet"
                checked={form.studOpenPairBigBet}
                onChange={(v) => set('studOpenPairBigBet', v)}
              />
            )}
            {hasFixedLimit(form.game, form.limit) && (
              <Check
                label="Fixed limit: an all-in of half a bet or more reopens the betting"
                checked={form.limitHalfBetReopens}
                onChange={(v) => set('limitHalfBetReopens', v)}
              />
            )}
            {issue('rules.raiseCap') !== undefined && <p className="field__error">{issue('rules.raiseCap')}</p>}
          </fieldset>
          <fieldset>
            <legend>Showdown</legend>
            {(Object.keys(SHOWDOWN_LABELS) as ShowdownField[]).map((k) => (
              <Check
                key={k}
                label={SHOWDOWN_LABELS[k]}
                checked={form.showdown[k]}
                onChange={(v) => setForm((f) => ({ ...f, showdown: { ...f.showdown, [k]: v } }))}
              />
            ))}
          </fieldset>
        </details>

        <fieldset>
          <legend>Your seat</legend>
          <Check label="Take a seat now" checked={form.sit} onChange={(v) => set('sit', v)} />
          {form.sit && (
            <NumberField
              label="Your buy-in"
              value={form.sitBuyIn}
              onChange={(v) => set('sitBuyIn', v)}
              placeholder={check.config ? String(check.config.buyIn.max) : ''}
              error={issue('sit.buy_in')}
              hint={
                check.config
                  ? `Between ${chips(check.config.buyIn.min)} and ${chips(check.config.buyIn.max)}.`
                  : undefined
              }
            />
          )}
        </fieldset>

        {submitted && check.issues.size > 0 && (
          <p className="form__error" role="alert">
            Check the highlighted fields.
          </p>
        )}
        {serverError !== null && (
          <p className="form__error" role="alert">
            {serverError}
          </p>
        )}
        <div className="form__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            Create room
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function Field({
  label,
  error,
  hint,
  children,
}: {
  readonly label: string;
  readonly error?: string | undefined;
  readonly hint?: string | undefined;
  readonly children: (ids: { id: string; describedBy: string | undefined }) => ReactNode;
}) {
  const id = useId();
  const hintId = useId();
  const errId = useId();
  const describedBy = [hint !== undefined ? hintId : null, error !== undefined ? errId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={`field${error !== undefined ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy: describedBy === '' ? undefined : describedBy })}
      {hint !== undefined && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
      {error !== undefined && (
        <p id={errId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

function NumberField(props: {
  readonly label: string;
  readonly value: string;
  readonly onChange: (v: string) => void;
  readonly placeholder?: string;
  readonly error?: string | undefined;
  readonly hint?: string | undefined;
  readonly step?: string;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint}>
      {({ id, describedBy }) => (
        <input
          id={id}
          type="number"
          inputMode="decimal"
          min={0}
          step={props.step ?? '1'}
          value={props.value}
          placeholder={props.placeholder}
          aria-invalid={props.error !== undefined}
          aria-describedby={describedBy}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

function Select(props: {
  readonly label: string;
  readonly value: string;
  readonly onChange: (v: string) => void;
  readonly options: readonly (readonly [string, string])[];
}) {
  return (
    <Field label={props.label}>
      {({ id }) => (
        <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
          {props.options.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function Check(props: { readonly label: string; readonly checked: boolean; readonly onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <div className="check">
      <input id={id} type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      <label htmlFor={id}>{props.label}</label>
    </div>
  );
}
