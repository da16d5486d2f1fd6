import type { LobbyRoomSummary, LobbyWaitlistEntry } from '@felt/client';
import { useEffect, useState } from 'react';
import { useT } from '../i18n/use-t.js';
import { errorText } from '../lib/error-text.js';
import type { Route } from '../lib/routes.js';
import type { AppState } from '../state/app-state.js';
import { offerSecondsLeft } from '../state/waitlists.js';
import { useStore } from './hooks.js';
import { JoinRoomDialog } from './join-room-dialog.js';

/** The time now, read at each render; while `on`, the component renders again every second. */
function useNow(on: boolean): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!on) return;
    const id = setInterval(() => setTick((n) => n + 1), 1_000);
    return () => clearInterval(id);
  }, [on]);
  return Date.now();
}

/**
 * Seats held for the player (a waitlist's offer), on every screen: the room, the seconds left and
 * "Take the seat", which asks for the buy-in and joins by the room's code.
 */
export function WaitlistOffers({ app, go }: { readonly app: AppState; readonly go: (r: Route) => void }) {
  const t = useT();
  const entries = useStore(app.waitlists.entries);
  const offers = entries.filter((e) => e.offer_expires_at !== null);
  const now = useNow(offers.length > 0);
  const [taking, setTaking] = useState<LobbyRoomSummary | null>(null);
  const take = async (entry: LobbyWaitlistEntry): Promise<void> => {
    try {
      setTaking(await app.lobby.getRoom(entry.session_id));
    } catch (err) {
      app.toasts.show(errorText(err));
    }
  };
  if (offers.length === 0 && taking === null) return null;
  return (
    <>
      {offers.map((e) => {
        const seconds = offerSecondsLeft(e, now) ?? 0;
        return (
          <div
            key={e.session_id}
            className="waitlist-offer"
            role="alert"
            data-testid="waitlist-offer"
            data-room={e.code}
          >
            <span>{t('waitlist.offer', { code: e.code, seconds })}</span>
            <button
              type="button"
              className="btn btn--primary btn--sm"
              disabled={seconds === 0}
              onClick={() => void take(e)}
            >
              {t('waitlist.takeSeat')}
            </button>
            <button
              type="button"
              className="btn btn--ghost btn--sm"
              aria-label={t('waitlist.leaveLabel', { code: e.code })}
              onClick={() =>
                void app.waitlists.leave(e.session_id).catch((err: unknown) => app.toasts.show(errorText(err)))
              }
            >
              {t('waitlist.leave')}
            </button>
          </div>
        );
      })}
      {taking !== null && (
        <JoinRoomDialog
          app={app}
          room={taking}
          onClose={() => setTaking(null)}
          onJoined={(id) => {
            setTaking(null);
            app.waitlists.seated(id);
            go({ name: 'table', tableId: id, spectate: false });
          }}
        />
      )}
    </>
  );
}

/** The lobby's list of the rooms the player waits at: their place in each line, and Leave. */
export function WaitlistList({ app }: { readonly app: AppState }) {
  const t = useT();
  const entries = useStore(app.waitlists.entries);
  if (entries.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="waitlists-title" data-testid="waitlists">
      <h2 id="waitlists-title">{t('waitlist.title')}</h2>
      <ul className="seat-list">
        {entries.map((e) => (
          <li key={e.session_id} className="seat-list__item" data-room={e.code}>
            <span>{t('waitlist.place', { code: e.code, position: e.position, length: e.length })}</span>
            <button
              type="button"
              className="btn btn--ghost btn--sm"
              aria-label={t('waitlist.leaveLabel', { code: e.code })}
              onClick={() =>
                void app.waitlists.leave(e.session_id).catch((err: unknown) => app.toasts.show(errorText(err)))
              }
            >
              {t('waitlist.leave')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
