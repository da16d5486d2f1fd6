import { useId, useState, type FormEvent } from 'react';
import { useT } from '../i18n/use-t.js';
import { errorText } from '../lib/error-text.js';
import type { AppState } from '../state/app-state.js';
import { LanguageSelect } from './language-select.js';

type Mode = 'signup' | 'login';

/** Sign up (a guest account with a chip grant) or log in. */
export function AuthScreen({ app }: { readonly app: AppState }) {
  const t = useT();
  const [mode, setMode] = useState<Mode>('signup');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { name: useId(), password: useId(), error: useId() };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (mode === 'signup') await app.signup(name.trim(), password);
      else await app.login(name.trim(), password);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="auth" aria-labelledby="auth-title">
      <div className="auth__card">
        <div className="auth__lang">
          <LanguageSelect app={app} />
        </div>
        <h1 id="auth-title" className="brand brand--large">
          {t('app.brand')}
        </h1>
        <p className="auth__lead">{t('auth.lead')}</p>
        <div className="tabs" role="tablist" aria-label={t('auth.account')}>
          {(['signup', 'login'] as const).map((m) => (
            <button
              key={m}
              type="button"
              role="tab"
              aria-selected={mode === m}
              className={`tab${mode === m ? ' tab--active' : ''}`}
              onClick={() => {
                setMode(m);
                setError(null);
              }}
            >
              {m === 'signup' ? t('auth.signUp') : t('auth.logIn')}
            </button>
          ))}
        </div>
        <form
          className="form"
          onSubmit={(e) => void submit(e)}
          aria-describedby={error !== null ? ids.error : undefined}
        >
          <div className="field">
            <label htmlFor={ids.name}>{t('auth.name')}</label>
            <input
              id={ids.name}
              name="name"
              autoComplete="username"
              required
              minLength={3}
              maxLength={24}
              pattern="[A-Za-z0-9_\-]+"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <p className="hint">{t('auth.nameHint')}</p>
          </div>
          <div className="field">
            <label htmlFor={ids.password}>{t('auth.password')}</label>
            <input
              id={ids.password}
              name="password"
              type="password"
              autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
              required
              minLength={mode === 'signup' ? 8 : 1}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            {mode === 'signup' && <p className="hint">{t('auth.passwordHint')}</p>}
          </div>
          {error !== null && (
            <p id={ids.error} className="form__error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
            {busy ? t('auth.wait') : mode === 'signup' ? t('auth.createAccount') : t('auth.logIn')}
          </button>
        </form>
      </div>
    </main>
  );
}
