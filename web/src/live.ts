import { useEffect, useRef } from 'react';
import { useSubscription, type AnyVariables, type TypedDocumentNode } from 'urql';

/**
 * useLive calls refresh when an event arrives on a subscription: the screen re-reads what it shows
 * (comments, reviews, a change request's state, pages edited by others) without a reload. The
 * events say what changed; the screen's own query reads it, with the same permissions.
 */
export function useLive<V extends AnyVariables>(query: TypedDocumentNode<unknown, V>, variables: V | undefined, refresh: () => void) {
  const latest = useRef(refresh);
  useEffect(() => { latest.current = refresh; });
  const [{ data }] = useSubscription({ query, variables: variables as V, pause: variables === undefined });
  useEffect(() => {
    if (data) latest.current();
  }, [data]);
}
