import type { Decision, TurnInfo } from '@felt/client';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Trans } from 'react-i18next';
import { useT } from '../i18n/use-t.js';
import {
  clampWager,
  hasSizingButtons,
  isAllIn,
  isFixedWager,
  potSizedTo,
  wagerOf,
  wagerStep,
} from '../lib/bet-sizing.js';
import { chips } from '../lib/format.js';
import type { CardSlot } from '../lib/table-model.js';
import { SHORTCUT_KEYS, shortcutFor, type ShortcutCommand } from '../lib/shortcuts.js';
import { Dialog } from './dialog.js';

interface Props {
  readonly turn: TurnInfo;
  /** Big blind (or big bet): the step of the amount's arrow keys. */
  readonly bigUnit: number;
  readonly heroCards: readonly CardSlot[];
  /** Draw games: indexes of the hero's cards picked for discarding. */
  readonly selected: ReadonlySet<number>;
  readonly clearSelection: () => void;
  readonly busy: boolean;
  readonly onAct: (d: Decision) => Promise<boolean>;
  /**
   * An engine-blind showdown (`valid_actions.show`): shows the hero's cards through the player's blind
   * seat. Mucking there is a fold, sent through `onAct`.
   */
  readonly onShow?: (() => void) | undefined;
  /**
   * Whether the single-letter shortcuts act on this bar. With several tables in the page only the
   * table in focus takes them (false for every other one).
   */
  readonly shortcutsActive?: boolean;
}

interface PendingAllIn {
  readonly decision: Decision;
  readonly amount: number;
}

function Key({ k }: { readonly k: string }) {
  return (
    <kbd className="kbd" aria-hidden="true">
      {k}
    </kbd>
  );
}

/**
 * The hero's decision: every action valid_actions allows, with its amount. Raises use a slider
 * and a box clamped to the legal range, with ½-pot, pot and all-in sizes; single-letter shortcuts
 * are shown on the buttons; anything that puts the whole stack in asks first.
 */
export function ActionBar({
  turn,
  bigUnit,
  heroCards,
  selected,
  clearSelection,
  busy,
  onAct,
  onShow,
  shortcutsActive = true,
}: Props) {
  const t = useT();
  const va = turn.validActions;
  const wager = useMemo(() => wagerOf(va), [va]);
  const [amount, setAmount] = useState<number>(() => (wager ? clampWager(wager.min, wager) : 0));
  const [text, setText] = useState<string>(() => (wager ? String(clampWager(wager.min, wager)) : ''));
  const [confirm, setConfirm] = useState<PendingAllIn | null>(null);
  const ids = { amount: useId(), slider: useId() };
  const firstButton = useRef<HTMLButtonElement>(null);

  // A new turn starts from its minimum.
  useEffect(() => {
    if (wager === null) return;
    const start = clampWager(wager.min, wager);
    setAmount(start);
    setText(String(start));
  }, [turn.turnToken, wager]);

  const setTo = useCallback(
    (n: number): void => {
      if (wager === null) return;
      const v = clampWager(n, wager);
      setAmount(v);
      setText(String(v));
    },
    [wager],
  );

  const send = useCallback(
    (decision: Decision, allInAmount?: number): void => {
      if (busy) return;
      if (allInAmount !== undefined) {
        setConfirm({ decision, amount: allInAmount });
        return;
      }
      void onAct(decision).then((ok) => {
        if (ok) clearSelection();
      });
    },
    [busy, onAct, clearSelection],
  );

  // At an engine-blind showdown a fold is the muck, whatever `fold` says.
  const showdown = va.show !== undefined;
  const fold = (): void => {
    if (va.fold || showdown) send({ action: 'fold' });
  };
  const checkOrCall = (): void => {
    if (va.check) send({ action: 'check' });
    else if (va.call !== null) send({ action: 'call' }, isAllIn(va, 'call') ? va.player_bet + va.call : undefined);
  };
  const wagerNow = (override?: number): void => {
    if (wager === null) return;
    const to = clampWager(override ?? amount, wager);
    const decision: Decision = { action: wager.kind, amount: to };
    send(decision, isAllIn(va, 'wager', to) ? to : undefined);
  };
  const allIn = (): void => {
    if (va.all_in !== null) send({ action: 'all_in' }, va.all_in);
  };
  const bringIn = (): void => {
    if (va.bring_in !== null) send({ action: 'bring_in' });
  };
  const discard = (): void => {
    if (va.discard === null) return;
    const cards = [...selected]
      .sort((a, b) => a - b)
      .map((i) => heroCards[i]?.code)
      .filter((c): c is string => typeof c === 'string');
    send({ action: 'discard', cards });
  };

  const sizing = wager !== null && hasSizingButtons(wager);
  const fixed = wager !== null && isFixedWager(wager);
  const handlers: Record<ShortcutCommand, () => void> = {
    fold,
    check_or_call: checkOrCall,
    wager: () => wagerNow(),
    all_in: allIn,
    half_pot: () => sizing && wager !== null && setTo(potSizedTo(va, 0.5, wager)),
    pot: () => sizing && wager !== null && setTo(potSizedTo(va, 1, wager)),
    bring_in: bringIn,
    draw: discard,
  };
  // An engine-blind showdown offers show or muck only: no other key acts.
  if (showdown)
    for (const k of Object.keys(handlers) as ShortcutCommand[]) if (k !== 'fold') handlers[k] = () => undefined;
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;

  useEffect(() => {
    if (!shortcutsActive) return;
    const onKey = (e: KeyboardEvent): void => {
      if (confirm !== null || document.querySelector('dialog[open]') !== null) return;
      const el = e.target instanceof HTMLElement ? e.target : null;
      const cmd = shortcutFor({
        key: e.key,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        repeat: e.repeat,
        target:
          el === null || el === document.body
            ? null
            : {
                tag: el.tagName,
                type: el instanceof HTMLInputElement ? el.type : '',
                allowShortcuts: el.dataset.shortcuts === 'allow',
              },
      });
      if (cmd === null) return;
      e.preventDefault();
      handlersRef.current[cmd]();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [confirm, shortcutsActive]);

  const toCall = va.call ?? 0;
  const maxDiscard = va.discard?.max ?? 0;
  const wagerVerb =
    wager?.kind === 'bet'
      ? t('action.verbBet')
      : wager?.kind === 'complete'
        ? t('action.verbComplete')
        : t('action.verbRaise');
  const wagerText = (n: number): string =>
    t(wager?.kind === 'bet' ? 'action.bet' : wager?.kind === 'complete' ? 'action.complete' : 'action.raise', {
      amount: chips(n),
    });

  return (
    <section
      className="action-bar"
      aria-label={t('action.yourActions')}
      data-testid="action-bar"
      data-turn={turn.fromSeq}
      data-keys={shortcutsActive ? 'on' : 'off'}
    >
      {showdown ? (
        <div className="action-bar__row" data-testid="blind-show">
          <p className="action-bar__hint">{t('blind.showPrompt')}</p>
          <button
            ref={firstButton}
            type="button"
            className="btn btn--primary btn--action"
            onClick={onShow}
            disabled={busy || onShow === undefined}
            data-testid="blind-show-cards"
          >
            {t('blind.show')}
          </button>
          <button
            type="button"
            className="btn btn--fold btn--action"
            onClick={fold}
            disabled={busy}
            aria-keyshortcuts={SHORTCUT_KEYS.fold}
            data-testid="blind-muck"
          >
            {t('blind.muck')} <Key k={SHORTCUT_KEYS.fold} />
          </button>
        </div>
      ) : va.discard !== null ? (
        <div className="action-bar__row">
          <p className="action-bar__hint">{t('action.pickDiscards', { count: maxDiscard })}</p>
          <button
            ref={firstButton}
            type="button"
            className="btn btn--primary btn--action"
            onClick={discard}
            disabled={busy || selected.size > maxDiscard}
            aria-keyshortcuts={SHORTCUT_KEYS.draw}
          >
            {selected.size === 0 ? t('action.standPat') : t('action.draw', { count: selected.size })}{' '}
            <Key k={SHORTCUT_KEYS.draw} />
          </button>
        </div>
      ) : (
        <>
          <div className="action-bar__row">
            {va.fold && (
              <button
                ref={firstButton}
                type="button"
                className="btn btn--fold btn--action"
                onClick={fold}
                disabled={busy}
                aria-keyshortcuts={SHORTCUT_KEYS.fold}
              >
                {t('action.fold')} <Key k={SHORTCUT_KEYS.fold} />
              </button>
            )}
            {va.check && (
              <button
                type="button"
                className="btn btn--secondary btn--action"
                onClick={checkOrCall}
                disabled={busy}
                aria-keyshortcuts={SHORTCUT_KEYS.check_or_call}
              >
                {t('action.check')} <Key k={SHORTCUT_KEYS.check_or_call} />
              </button>
            )}
            {!va.check && va.call !== null && (
              <button
                type="button"
                className="btn btn--secondary btn--action"
                onClick={checkOrCall}
                disabled={busy}
                aria-keyshortcuts={SHORTCUT_KEYS.check_or_call}
              >
                {`${t('action.call', { amount: chips(toCall) })}${isAllIn(va, 'call') ? t('action.allInMark') : ''}`}{' '}
                <Key k={SHORTCUT_KEYS.check_or_call} />
              </button>
            )}
            {va.bring_in !== null && (
              <button
                type="button"
                className="btn btn--secondary btn--action"
                onClick={bringIn}
                disabled={busy}
                aria-keyshortcuts={SHORTCUT_KEYS.bring_in}
              >
                {t('action.bringIn', { amount: chips(va.bring_in) })} <Key k={SHORTCUT_KEYS.bring_in} />
              </button>
            )}
            {wager !== null && (
              <button
                type="button"
                className="btn btn--primary btn--action"
                onClick={() => wagerNow()}
                disabled={busy}
                aria-keyshortcuts={SHORTCUT_KEYS.wager}
              >
                {`${wagerText(amount)}${isAllIn(va, 'wager', amount) ? t('action.allInMark') : ''}`}{' '}
                <Key k={SHORTCUT_KEYS.wager} />
              </button>
            )}
            {va.all_in !== null && (wager === null || va.all_in !== amount) && (
              <button
                type="button"
                className="btn btn--danger btn--action"
                onClick={allIn}
                disabled={busy}
                aria-keyshortcuts={SHORTCUT_KEYS.all_in}
              >
                {t('action.allIn', { amount: chips(va.all_in) })} <Key k={SHORTCUT_KEYS.all_in} />
              </button>
            )}
          </div>
          {wager !== null && !fixed && (
            <div className="action-bar__row action-bar__sizing">
              {sizing && (
                <>
                  <button
                    type="button"
                    className="btn btn--ghost btn--sm"
                    onClick={() => setTo(potSizedTo(va, 0.5, wager))}
                    aria-keyshortcuts={SHORTCUT_KEYS.half_pot}
                  >
                    {t('action.halfPot')} <Key k={SHORTCUT_KEYS.half_pot} />
                  </button>
                  <button
                    type="button"
                    className="btn btn--ghost btn--sm"
                    onClick={() => setTo(potSizedTo(va, 1, wager))}
                    aria-keyshortcuts={SHORTCUT_KEYS.pot}
                  >
                    {t('action.pot')} <Key k={SHORTCUT_KEYS.pot} />
                  </button>
                  <button type="button" className="btn btn--ghost btn--sm" onClick={() => setTo(wager.max)}>
                    {t('action.max')}
                  </button>
                </>
              )}
              <label htmlFor={ids.slider} className="visually-hidden">
                {t('action.amountSlider', { verb: wagerVerb })}
              </label>
              <input
                id={ids.slider}
                className="slider"
                type="range"
                min={wager.min}
                max={wager.max}
                step={wager.choices !== null ? undefined : 1}
                list={wager.choices !== null ? `${ids.slider}-choices` : undefined}
                value={amount}
                onChange={(e) => setTo(Number(e.target.value))}
                aria-valuetext={t('common.chips', { amount: chips(amount) })}
              />
              {wager.choices !== null && (
                <datalist id={`${ids.slider}-choices`}>
                  {wager.choices.map((c) => (
                    <option key={c} value={c} />
                  ))}
                </datalist>
              )}
              <label htmlFor={ids.amount} className="visually-hidden">
                {t('action.amount', { verb: wagerVerb })}
              </label>
              <input
                id={ids.amount}
                className="amount"
                type="number"
                inputMode="numeric"
                min={wager.min}
                max={wager.max}
                step={wagerStep(bigUnit)}
                value={text}
                data-shortcuts="allow"
                data-testid="amount"
                onChange={(e) => {
                  setText(e.target.value);
                  const n = Number(e.target.value);
                  if (e.target.value !== '' && Number.isFinite(n)) setAmount(clampWager(n, wager));
                }}
                onBlur={() => setTo(Number(text))}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    setTo(Number(text));
                    wagerNow(Number(text));
                  }
                }}
                aria-describedby={`${ids.amount}-range`}
              />
              <span id={`${ids.amount}-range`} className="hint">
                {chips(wager.min)}–{chips(wager.max)}
              </span>
            </div>
          )}
        </>
      )}
      <Dialog open={confirm !== null} title={t('action.confirmTitle')} onClose={() => setConfirm(null)}>
        {confirm !== null && (
          <div className="confirm">
            <p>
              <Trans
                i18nKey="action.confirmText"
                values={{ amount: chips(confirm.amount) }}
                components={{ b: <strong /> }}
              />
            </p>
            <div className="form__actions">
              <button type="button" className="btn btn--ghost" onClick={() => setConfirm(null)}>
                {t('common.cancel')}
              </button>
              <button
                type="button"
                className="btn btn--danger"
                autoFocus
                data-testid="confirm-all-in"
                onClick={() => {
                  const d = confirm.decision;
                  setConfirm(null);
                  void onAct(d);
                }}
              >
                {t('action.confirm')}
              </button>
            </div>
          </div>
        )}
      </Dialog>
    </section>
  );
}
