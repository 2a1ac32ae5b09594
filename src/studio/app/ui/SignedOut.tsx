import { useEffect, useState, type FormEvent } from 'react';
import { PREFIX, SIGNED_OUT } from '../api.js';

/** The status of the API's answer that signed the page out (401 or 403), or null while signed in. */
export function useSignedOut(): number | null {
  const [status, setStatus] = useState<number | null>(null);
  useEffect(() => {
    const onSignedOut = (e: Event) => setStatus((e as CustomEvent<{ status: number }>).detail.status);
    addEventListener(SIGNED_OUT, onSignedOut);
    return () => removeEventListener(SIGNED_OUT, onSignedOut);
  }, []);
  return status;
}

/**
 * What the page shows once the host refuses its token: why, and how to sign in again — the `?token=` link
 * (`weir interface token` prints the token), or the token pasted here, which opens that link.
 */
export function SignedOut({ status }: { status: number }) {
  const [token, setToken] = useState('');
  const link = `${location.origin}${PREFIX}/studio/?token=`;
  const signIn = (e: FormEvent) => {
    e.preventDefault();
    // The host sets the cookie and redirects to the page without the token; the browser keeps the #view.
    location.assign(`${link}${encodeURIComponent(token.trim())}${location.hash}`);
  };
  return (
    <section className="page signed-out" aria-labelledby="signed-out-title">
      <h1 id="signed-out-title">Signed out</h1>
      <p>
        {status === 401
          ? 'The host no longer receives this page’s access token: its cookie is gone.'
          : 'The host refused the access token this page holds: the host’s token is another one now (a new home, or a new token).'}
      </p>
      <p>
        Run <code>weir interface token</code> where the host runs, then open
        <code className="url">{link}&lt;token&gt;</code>
      </p>
      <form className="sign-in" onSubmit={signIn}>
        <label>
          Access token <input type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} autoFocus />
        </label>
        <button className="primary" disabled={!token.trim()}>
          Sign in
        </button>
      </form>
    </section>
  );
}
