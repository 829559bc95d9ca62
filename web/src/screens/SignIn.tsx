import { useState, type FormEvent } from 'react';

/** SignIn opens a browser session with /auth/sign-in, then goes back where the writer was. */
export function SignIn({ returnTo }: { returnTo: string }) {
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setProblem('');
    try {
      const res = await fetch('/auth/sign-in', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: form.get('email'), password: form.get('password') }),
      });
      if (res.ok) {
        // A full load: the cache must not keep anything from before the sign-in.
        location.assign(returnTo);
        return;
      }
      setProblem(
        res.status === 401 ? 'That e-mail address and password do not match an account.'
          : res.status === 429 ? 'Too many attempts. Wait a few minutes and try again.'
            : `Signing in failed (${res.status}). Please try again.`,
      );
    } catch {
      setProblem("Bindery can't be reached. Check your connection and try again.");
    } finally {
      setBusy(false);
    }
  }
  return (
    <main className="screen narrow" id="main">
      <h1>Sign in to Bindery</h1>
      <form onSubmit={submit} className="stack">
        <label>E-mail address<input name="email" type="email" autoComplete="username" required /></label>
        <label>Password<input name="password" type="password" autoComplete="current-password" required /></label>
        {problem && <p className="problem" role="alert">{problem}</p>}
        <button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <p className="muted">No account yet? Open the invite link an administrator sent you.</p>
    </main>
  );
}
