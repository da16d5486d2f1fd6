import { newCommandId, type LobbyRoomSummary } from '@felt/client';
import { useId, useState, type FormEvent } from 'react';
import { useT } from '../i18n/use-t.js';
import { errorText } from '../lib/error-text.js';
import { chips, gameShortTitle } from '../lib/format.js';
import type { AppState } from '../state/app-state.js';
import { Dialog } from './dialog.js';

/** The buy-in for a seat at a listed room, then the join by its code (the lobby's Join, a waitlist's offer). */
export function JoinRoomDialog({
  app,
  room,
  onClose,
  onJoined,
}: {
  readonly app: AppState;
  readonly room: LobbyRoomSummary;
  readonly onClose: () => void;
  readonly onJoined: (id: string) => void;
}) {
  const t = useT();
  const [buyIn, setBuyIn] = useState(String(room.buy_in.max));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const joined = await app.lobby.joinByCode(room.code, { buy_in: Number(buyIn) }, newCommandId());
      await app.refreshMe();
      onJoined(joined.session_id);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      title={t('lobby.joinTitle', { game: gameShortTitle(room.game, room.limit), stakes: room.stakes })}
      onClose={onClose}
    >
      <form className="form" onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor={id}>{t('lobby.buyIn')}</label>
          <input
            id={id}
            type="number"
            inputMode="numeric"
            min={room.buy_in.min}
            max={room.buy_in.max}
            step={1}
            required
            value={buyIn}
            onChange={(e) => setBuyIn(e.target.value)}
          />
          <p className="hint">{t('lobby.buyInRange', { min: chips(room.buy_in.min), max: chips(room.buy_in.max) })}</p>
        </div>
        {error !== null && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        <div className="form__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {t('lobby.takeSeat')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
