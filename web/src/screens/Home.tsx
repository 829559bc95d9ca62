import { useEffect } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { navigate, appPath } from '../router';
import { Loading, Problem } from '../errors';

const HomeQuery = graphql(`
  query Home {
    organizations(first: 1) { nodes { id urls { app } } }
  }
`);

/** Home sends a signed-in writer to their first organization (signed out: to sign in). */
export function Home() {
  const [{ data, error }] = useQuery({ query: HomeQuery });
  const first = data?.organizations.nodes[0];
  useEffect(() => {
    if (first) navigate(appPath(first.urls.app), true);
  }, [first]);
  return (
    <main className="screen" id="main">
      <h1 className="visually-hidden">Bindery</h1>
      {error ? <Problem error={error} /> : data && !first ? <p>You don't belong to any organization yet. Ask an administrator for an invite link.</p> : <Loading what="your organizations" />}
    </main>
  );
}
