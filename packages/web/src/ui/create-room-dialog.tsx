import { newCommandId } from '@felt/client';
import { BETTING_LIMITS, DealingMode, isMixedGame, type BettingLimit, type GameType } from '@felt/protocol';
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { currentLocale } from '../i18n/i18n.js';
import { useT } from '../i18n/use-t.js';
import { errorText } from '../lib/error-text.js';
import { chips, gameName, limitName } from '../lib/format.js';
import {
  BLIND_DEALING_GAMES,
  checkRoomForm,
  defaultsFor,
  EMPTY_ROOM_FORM,
  gamesFor,
  hasFixedLimit,
  hasStudFixedLimit,
  lockedByDealing,
  setDealing,
  SHOWDOWN_FIELDS,
  showdownLabel,
  stakeFields,
  stakeLabel,
  toConfigInput,
  type RoomForm,
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
  const t = useT();
  const locale = currentLocale();
  const [form, setForm] = useState<RoomForm>(EMPTY_ROOM_FORM);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  // The messages are in the page's language: a language switch writes them again.
  const check = useMemo(() => checkRoomForm(form), [form, locale]);
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
  const locked = lockedByDealing(form);
  const blind = form.dealing === DealingMode.ENGINE_BLIND;
  // The parser's objections to the dealing (it holds the boxes, so they show only for a form built by hand).
  const dealingIssue = issue('dealing') ?? issue('botFill.mode');

  return (
    <Dialog open={open} title={t('room.title')} onClose={onClose} className="dialog--wide">
      <form className="form room-form" onSubmit={(e) => void submit(e)} noValidate>
        <fieldset>
          <legend>{t('room.game')}</legend>
          <div className="form__row">
            <Select
              label={t('room.game')}
              value={form.game}
              onChange={(v) => setForm((f) => ({ ...f, game: v as GameType, stakes: {} }))}
              options={gamesFor(form.dealing).map((g) => [g, gameName(g)])}
            />
            {!mixed && (
              <Select
                label={t('room.limit')}
                value={form.limit}
                onChange={(v) => set('limit', v as BettingLimit | '')}
                options={[
                  ['', t('room.usualLimit', { limit: d ? limitName(d.limit) : '' })],
                  ...BETTING_LIMITS.map((l): [string, string] => [l, limitName(l)]),
                ]}
              />
            )}
            <NumberField
              label={t('room.seats')}
              value={form.seats}
              onChange={(v) => set('seats', v)}
              placeholder={d ? String(d.seats) : ''}
              error={issue('seats')}
            />
          </div>
          {mixed && (
            <NumberField
              label={t('room.handsPerGame')}
              value={form.handsPerVariant}
              onChange={(v) => set('handsPerVariant', v)}
              placeholder={d?.rotation ? String(d.rotation.handsPerVariant) : ''}
              error={issue('rotation.handsPerVariant')}
              hint={
                d?.rotation
                  ? t('room.rotation', {
                      games: d.rotation.order.map((e) => gameName(e.game)).join(t('common.listSeparator')),
                    })
                  : undefined
              }
            />
          )}
        </fieldset>

        <fieldset data-testid="room-dealing">
          <legend>{t('room.dealing')}</legend>
          <Select
            label={t('room.dealing')}
            value={form.dealing}
            onChange={(v) => setForm((f) => setDealing(f, v as DealingMode))}
            options={[
              [DealingMode.STANDARD, t('room.dealingStandard')],
              [DealingMode.ENGINE_BLIND, t('room.dealingBlind')],
            ]}
            hint={
              blind
                ? t('room.dealingBlindHint', {
                    games: BLIND_DEALING_GAMES.map((g) => gameName(g)).join(t('common.listSeparator')),
                  })
                : t('room.dealingStandardHint')
            }
            error={dealingIssue}
          />
        </fieldset>

        <fieldset>
          <legend>{t('room.stakes')}</legend>
          <div className="form__row">
            {stakeFields(form.game, form.limit).map((f) => (
              <NumberField
                key={f}
                label={stakeLabel(f)}
                value={form.stakes[f] ?? ''}
                onChange={(v) => setForm((x) => ({ ...x, stakes: { ...x.stakes, [f]: v } }))}
                placeholder={d ? String(d.stakes[f]) : ''}
                error={issue(`stakes.${f}`)}
              />
            ))}
          </div>
          <div className="form__row">
            <NumberField
              label={t('room.minBuyIn')}
              value={form.buyInMin}
              onChange={(v) => set('buyInMin', v)}
              placeholder={check.config ? String(check.config.buyIn.min) : ''}
              error={issue('buyIn.min')}
            />
            <NumberField
              label={t('room.maxBuyIn')}
              value={form.buyInMax}
              onChange={(v) => set('buyInMax', v)}
              placeholder={check.config ? String(check.config.buyIn.max) : ''}
              error={issue('buyIn.max')}
            />
          </div>
        </fieldset>

        <fieldset>
          <legend>{t('room.clock')}</legend>
          <div className="form__row">
            <NumberField
              label={t('room.actionSeconds')}
              value={form.actionSeconds}
              onChange={(v) => set('actionSeconds', v)}
              placeholder={d ? String(d.clock.actionSeconds) : ''}
              error={issue('clock.actionSeconds')}
            />
            <NumberField
              label={t('room.timeBank')}
              value={form.timeBankSeconds}
              onChange={(v) => set('timeBankSeconds', v)}
              placeholder={d ? String(d.clock.timeBankSeconds) : ''}
              error={issue('clock.timeBankSeconds')}
            />
            <NumberField
              label={t('room.warning')}
              value={form.warningSeconds}
              onChange={(v) => set('warningSeconds', v)}
              placeholder={d ? String(d.clock.warningSeconds) : ''}
              error={issue('clock.warningSeconds')}
            />
            <NumberField
              label={t('room.refillSeconds')}
              value={form.refillSeconds}
              onChange={(v) => set('refillSeconds', v)}
              placeholder={d ? String(d.clock.refillSeconds) : ''}
              error={issue('clock.refillSeconds')}
            />
            <NumberField
              label={t('room.refillEveryHands')}
              value={form.refillEveryHands}
              onChange={(v) => set('refillEveryHands', v)}
              placeholder={d ? String(d.clock.refillEveryHands) : ''}
              error={issue('clock.refillEveryHands')}
            />
          </div>
        </fieldset>

        {/* A practice room takes no rake: the rake is not asked for (nor sent). */}
        {!form.practiceChips && (
          <fieldset>
            <legend>{t('room.rake')}</legend>
            <div className="form__row">
              <NumberField
                label={t('room.rakePercent')}
                value={form.rakePercent}
                onChange={(v) => set('rakePercent', v)}
                placeholder="0"
                step="0.01"
                error={issue('rake.percent')}
              />
              <NumberField
                label={t('room.rakeCap')}
                value={form.rakeCap}
                onChange={(v) => set('rakeCap', v)}
                placeholder={t('room.rakeCapPlaceholder')}
                error={issue('rake.cap')}
              />
              <NumberField
                label={t('room.rakeHeadsUp')}
                value={form.rakeHeadsUp}
                onChange={(v) => set('rakeHeadsUp', v)}
                placeholder={t('room.rakeHeadsUpPlaceholder')}
                step="0.01"
                error={issue('rake.headsUpPercent')}
              />
            </div>
            <Check
              label={t('room.noFlopNoDrop')}
              checked={form.noFlopNoDrop}
              onChange={(v) => set('noFlopNoDrop', v)}
            />
          </fieldset>
        )}

        <fieldset>
          <legend>{t('room.table')}</legend>
          <Check label={t('room.autoStart')} checked={form.autoStart} onChange={(v) => set('autoStart', v)} />
          <Check
            label={t('room.hostStart')}
            checked={form.hostMayForceStart}
            onChange={(v) => set('hostMayForceStart', v)}
          />
          <Check
            label={t('room.botFill')}
            checked={form.botFill}
            onChange={(v) => set('botFill', v)}
            disabled={locked.botFill}
          />
          {form.botFill && (
            <NumberField
              label={t('room.botTarget')}
              value={form.botTarget}
              onChange={(v) => set('botTarget', v)}
              placeholder="2"
              error={issue('botFill.targetPlayers')}
            />
          )}
          <Check label={t('room.listed')} checked={form.listed} onChange={(v) => set('listed', v)} />
          <Check
            label={t('room.practiceChips')}
            checked={form.practiceChips}
            onChange={(v) => set('practiceChips', v)}
            disabled={locked.practiceChips}
          />
          {form.practiceChips && <p className="hint">{t('room.practiceChipsHint')}</p>}
          {(locked.practiceChips || locked.botFill) && <p className="hint">{t('room.lockedByDealing')}</p>}
        </fieldset>

        <details className="room-form__rules">
          <summary>{t('room.houseRules')}</summary>
          <fieldset>
            <legend>{t('room.betting')}</legend>
            <div className="form__row">
              <Select
                label={t('room.shortAllInBlind')}
                value={form.shortAllInBlind}
                onChange={(v) => set('shortAllInBlind', v as RoomForm['shortAllInBlind'])}
                options={[
                  ['full_blind', t('room.shortAllInFull')],
                  ['posted', t('room.shortAllInPosted')],
                ]}
              />
              <Select
                label={t('room.oddChips')}
                value={form.oddChips}
                onChange={(v) => set('oddChips', v as RoomForm['oddChips'])}
                options={[
                  ['one_each', t('room.oddChipsOneEach')],
                  ['first_winner', t('room.oddChipsFirst')],
                ]}
              />
              <Select
                label={t('room.raiseCap')}
                value={form.raiseCap}
                onChange={(v) => set('raiseCap', v)}
                options={[
                  ['default', t('room.raiseCapDefault')],
                  ['none', t('room.raiseCapNone')],
                  ...['2', '3', '4', '5', '6', '8', '10'].map((n): [string, string] => [n, n]),
                ]}
              />
            </div>
            {hasStudFixedLimit(form.game, form.limit) && (
              <Check
                label={t('room.studOpenPair')}
                checked={form.studOpenPairBigBet}
                onChange={(v) => set('studOpenPairBigBet', v)}
              />
            )}
            {hasFixedLimit(form.game, form.limit) && (
              <Check
                label={t('room.halfBet')}
                checked={form.limitHalfBetReopens}
                onChange={(v) => set('limitHalfBetReopens', v)}
              />
            )}
            {issue('rules.raiseCap') !== undefined && <p className="field__error">{issue('rules.raiseCap')}</p>}
          </fieldset>
          <fieldset>
            <legend>{t('room.showdown')}</legend>
            {SHOWDOWN_FIELDS.map((k) => (
              <Check
                key={k}
                label={showdownLabel(k)}
                checked={form.showdown[k]}
                onChange={(v) => setForm((f) => ({ ...f, showdown: { ...f.showdown, [k]: v } }))}
              />
            ))}
          </fieldset>
        </details>

        <fieldset>
          <legend>{t('room.yourSeat')}</legend>
          <Check label={t('room.sitNow')} checked={form.sit} onChange={(v) => set('sit', v)} />
          {form.sit && (
            <NumberField
              label={t('room.yourBuyIn')}
              value={form.sitBuyIn}
              onChange={(v) => set('sitBuyIn', v)}
              placeholder={check.config ? String(check.config.buyIn.max) : ''}
              error={issue('sit.buy_in')}
              hint={
                check.config
                  ? t('room.yourBuyInHint', {
                      min: chips(check.config.buyIn.min),
                      max: chips(check.config.buyIn.max),
                    })
                  : undefined
              }
            />
          )}
        </fieldset>

        {submitted && check.issues.size > 0 && (
          <p className="form__error" role="alert">
            {t('room.checkFields')}
          </p>
        )}
        {serverError !== null && (
          <p className="form__error" role="alert">
            {serverError}
          </p>
        )}
        <div className="form__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {t('room.create')}
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
  readonly hint?: string | undefined;
  readonly error?: string | undefined;
}) {
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      {({ id, describedBy }) => (
        <select
          id={id}
          value={props.value}
          aria-invalid={props.error !== undefined}
          aria-describedby={describedBy}
          onChange={(e) => props.onChange(e.target.value)}
        >
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

function Check(props: {
  readonly label: string;
  readonly checked: boolean;
  readonly onChange: (v: boolean) => void;
  readonly disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="check">
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <label htmlFor={id}>{props.label}</label>
    </div>
  );
}
