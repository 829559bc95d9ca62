import type { CombinedError } from 'urql';
import { useEffect } from 'react';
import { navigate } from './router';

/** words turns an API error into a sentence a writer understands. */
export function words(error: CombinedError | Error | string): string {
  if (typeof error === 'string') return error;
  const e = error as CombinedError;
  if (e.networkError) return "Bindery can't be reached. Check your connection and try again.";
  const first = e.graphQLErrors?.[0];
  if (!first) return error.message || 'Something went wrong.';
  switch (first.extensions?.code) {
    case 'UNAUTHENTICATED':
      return 'Your session has ended. Please sign in again.';
    case 'NOT_FOUND':
      return "This doesn't exist, or you don't have access to it.";
    case 'FORBIDDEN':
      return `You don't have permission to do this. ${first.message}`;
    case 'CONFLICT':
      return `Someone else changed this at the same time: ${first.message}`;
    case 'INVALID':
      return `That didn't work: ${first.message}`;
    default:
      return first.message || 'Something went wrong on the server. Please try again.';
  }
}

export function isSignedOut(error?: CombinedError): boolean {
  return !!error?.graphQLErrors?.some((g) => g.extensions?.code === 'UNAUTHENTICATED') ||
    (error?.response as Response | undefined)?.status === 401;
}

/** Problem shows an error in words; a signed-out error sends the writer to sign in. */
export function Problem({ error, title }: { error: CombinedError | Error | string; title?: string }) {
  const out = typeof error !== 'string' && 'graphQLErrors' in error && isSignedOut(error as CombinedError);
  useEffect(() => {
    if (out) navigate('/sign-in?return=' + encodeURIComponent(location.pathname + location.search), true);
  }, [out]);
  return (
    <div className="problem" role="alert">
      <h2>{title ?? 'Something went wrong'}</h2>
      <p>{words(error)}</p>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return <p className="loading" role="status" aria-live="polite">Loading {what}…</p>;
}
