import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useT } from '../i18n/use-t.js';
import {
  chatCharsLeft,
  chatSenderText,
  chatTimeText,
  dealerLineText,
  hasChatText,
  mergeFeed,
  unreadCount,
} from '../lib/chat-feed.js';
import { errorText } from '../lib/error-text.js';
import type { TableController, TableScreenState } from '../state/table-controller.js';

/** The room's chat setting as the lobby last answered it; null while unknown. */
export interface ChatSetting {
  readonly enabled: boolean;
  readonly spectators: boolean;
}

interface Props {
  readonly controller: TableController;
  readonly st: TableScreenState;
  /** The signed-in user: their own name is not offered for muting. */
  readonly meId: string | null;
  readonly setting: ChatSetting | null;
  /** Set for the room's host: the chat switches, and what to do when one is flipped. */
  readonly onSetting?: ((change: Partial<ChatSetting>) => void) | undefined;
  readonly settingBusy?: boolean;
}

const PHONE = '(max-width: 640px)';

/**
 * The table's chat: messages and the dealer's lines (who won what) in one log, a line to write in
 * with its character count, the table's refusal when a message was not taken, a mute per player
 * (their name toggles it), and, for the host, the room's chat switches. Folds away (folded at first
 * on a phone), counting what arrived meanwhile.
 */
export function ChatPanel({ controller, st, meId, setting, onSetting, settingBusy = false }: Props) {
  const t = useT();
  const inputId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(() => !(typeof matchMedia === 'function' && matchMedia(PHONE).matches));
  const feed = useMemo(() => mergeFeed(st.chat, st.dealer), [st.chat, st.dealer]);
  const lastKey = feed.at(-1)?.key ?? null;
  const [seenKey, setSeenKey] = useState<string | null>(lastKey);
  const logRef = useRef<HTMLOListElement>(null);
  /** The log is scrolled to its end (or was just opened): new lines keep it there. */
  const atEnd = useRef(true);

  // While open, everything shown is seen, and the log follows the newest line unless the player
  // scrolled back to read.
  useEffect(() => {
    if (!open) return;
    setSeenKey(lastKey);
    const log = logRef.current;
    if (log !== null && atEnd.current) log.scrollTop = log.scrollHeight;
  }, [open, lastKey]);

  const left = chatCharsLeft(text);
  const unread = open ? 0 : unreadCount(feed, seenKey);
  // The box empties as the message goes, so the next one can be typed (and sent) while it is on its
  // way; a refused message comes back into an empty box, with the refusal under it. (Waiting for the
  // answer before emptying it dropped an Enter pressed meanwhile, and then erased what was typed.)
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (!hasChatText(text)) return;
    const sending = text;
    setText('');
    void controller.sendChat(sending).then((sent) => {
      if (!sent) setText((current) => (current === '' ? sending : current));
    });
  };

  return (
    <section
      className={`chat${open ? '' : ' chat--folded'}`}
      aria-label={t('chat.region')}
      data-testid="chat-panel"
      data-open={open}
    >
      <header className="chat__head">
        <h2 className="chat__title">{t('chat.title')}</h2>
        {unread > 0 && (
          <span className="chat__unread" data-testid="chat-unread">
            {t('chat.unread', { count: unread })}
          </span>
        )}
        <button
          type="button"
          className="btn btn--ghost btn--sm chat__toggle"
          aria-expanded={open}
          onClick={() => {
            atEnd.current = true;
            setOpen((o) => !o);
          }}
          data-testid="chat-toggle"
        >
          {open ? t('chat.hide') : t('chat.show')}
        </button>
      </header>
      {open && (
        <>
          {onSetting !== undefined && setting !== null && (
            <fieldset className="chat__host" data-testid="chat-host" disabled={settingBusy}>
              <legend>{t('chat.hostTitle')}</legend>
              <label className="check">
                <input
                  type="checkbox"
                  checked={setting.enabled}
                  onChange={(e) => onSetting({ enabled: e.target.checked })}
                  data-testid="chat-enabled"
                />
                {t('chat.hostEnabled')}
              </label>
              <label className="check">
                <input
                  type="checkbox"
                  checked={setting.spectators}
                  disabled={!setting.enabled}
                  onChange={(e) => onSetting({ spectators: e.target.checked })}
                  data-testid="chat-spectators"
                />
                {t('chat.hostSpectators')}
              </label>
            </fieldset>
          )}
          {setting?.enabled === false && (
            <p className="chat__off muted" data-testid="chat-off">
              {t('chat.off')}
            </p>
          )}
          {feed.length === 0 ? (
            <p className="chat__empty muted">{t('chat.empty')}</p>
          ) : (
            <ol
              className="chat__log"
              role="log"
              aria-live="polite"
              ref={logRef}
              onScroll={(e) => {
                const log = e.currentTarget;
                atEnd.current = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
              }}
              data-testid="chat-log"
            >
              {feed.map((entry) =>
                entry.kind === 'dealer' ? (
                  <li key={entry.key} className="chat__line chat__line--dealer" data-testid="chat-dealer">
                    <time className="chat__time">{chatTimeText(entry.line.ts)}</time>
                    <span className="chat__from">{t('chat.dealer')}</span>
                    <span className="chat__text">{dealerLineText(entry.line)}</span>
                  </li>
                ) : (
                  <li
                    key={entry.key}
                    className="chat__line"
                    data-testid="chat-message"
                    data-user-id={entry.message.user_id}
                  >
                    <time className="chat__time">{chatTimeText(entry.message.ts)}</time>
                    {entry.message.user_id === meId ? (
                      <span className="chat__from">{entry.message.name}</span>
                    ) : (
                      <button
                        type="button"
                        className="chat__from chat__name"
                        title={t('chat.mute', { name: entry.message.name })}
                        aria-label={t('chat.mute', { name: entry.message.name })}
                        onClick={() => controller.toggleMute(entry.message.user_id, entry.message.name)}
                        data-testid="chat-name"
                      >
                        {entry.message.name}
                      </button>
                    )}
                    <span className="chat__who muted">{chatSenderText(entry.message)}</span>
                    <span className="chat__text">{entry.message.text}</span>
                  </li>
                ),
              )}
            </ol>
          )}
          {st.muted.size > 0 && (
            <div className="chat__muted" data-testid="chat-muted">
              <span className="muted">{t('chat.muted')}</span>
              {[...st.muted].map(([userId, name]) => (
                <button
                  key={userId}
                  type="button"
                  className="chat__name chat__name--muted"
                  title={t('chat.unmute', { name })}
                  aria-label={t('chat.unmute', { name })}
                  onClick={() => controller.toggleMute(userId, name)}
                  data-testid="chat-unmute"
                >
                  {name}
                </button>
              ))}
            </div>
          )}
          <form className="chat__form" onSubmit={submit}>
            <label htmlFor={inputId} className="visually-hidden">
              {t('chat.message')}
            </label>
            <input
              id={inputId}
              className="chat__input"
              type="text"
              autoComplete="off"
              value={text}
              placeholder={t('chat.placeholder')}
              onChange={(e) => {
                setText(e.target.value);
                controller.clearChatError();
              }}
              aria-describedby={`${inputId}-count`}
              data-testid="chat-input"
            />
            <span
              id={`${inputId}-count`}
              className={`chat__count${left < 0 ? ' chat__count--over' : ''}`}
              aria-label={left < 0 ? t('chat.overLimit', { count: -left }) : t('chat.charsLeft', { count: left })}
              data-testid="chat-count"
            >
              {left}
            </span>
            <button
              type="submit"
              className="btn btn--primary btn--sm"
              disabled={!hasChatText(text)}
              data-testid="chat-send"
            >
              {t('chat.send')}
            </button>
          </form>
          {st.chatError !== null && (
            <p className="chat__error form__error" role="alert" data-testid="chat-error">
              {errorText(st.chatError)}
            </p>
          )}
        </>
      )}
    </section>
  );
}
