import { useQuery } from 'urql';
import { graphql } from '../gql';
import { Link, appPath } from '../router';
import { Loading, Problem } from '../errors';
import { Shell } from './Shell';

export const OrganizationSwitcherFragment = graphql(`
  fragment OrganizationSwitcher on Query {
    organizations(first: 100) { nodes { id title urls { app } } }
  }
`);

export const SpaceCardFragment = graphql(`
  fragment SpaceCard on Space { id title emoji parent visibility changeRequestsOpen urls { app } }
`);

const OrganizationHomeQuery = graphql(`
  query OrganizationHome($orgId: ID!) {
    ...OrganizationSwitcher
    organization(id: $orgId) {
      id
      title
      collections(first: 100) { nodes { id title description parent urls { app } } }
      spaces(first: 200) { totalCount nodes { ...SpaceCard } }
      sites(first: 100) { nodes { id title published urls { app published } } }
    }
  }
`);

type SpaceCard = { id: string; title: string; emoji: string; parent?: string | null; changeRequestsOpen: number; urls: { app: string } };

function Spaces({ spaces }: { spaces: SpaceCard[] }) {
  if (spaces.length === 0) return <p className="muted">No spaces here yet.</p>;
  return (
    <ul className="cards">
      {spaces.map((s) => (
        <li key={s.id}>
          <Link href={appPath(s.urls.app)}>
            <span aria-hidden="true">{s.emoji ? String.fromCodePoint(parseInt(s.emoji, 16) || 0x1f4c4) : '📄'}</span> {s.title || 'Untitled space'}
          </Link>
          {s.changeRequestsOpen > 0 && <span className="badge">{s.changeRequestsOpen} open change request{s.changeRequestsOpen > 1 ? 's' : ''}</span>}
        </li>
      ))}
    </ul>
  );
}

/** OrganizationScreen (urls.app of an organization): its collections, spaces and sites. */
export function OrganizationScreen({ orgId }: { orgId: string }) {
  const [{ data, error, fetching }] = useQuery({ query: OrganizationHomeQuery, variables: { orgId } });
  const org = data?.organization;
  const body = error ? <Problem error={error} /> : !org ? (fetching ? <Loading what="the organization" /> : <Problem error="This organization doesn't exist, or you aren't a member." />) : (
    <>
      <h1>{org.title}</h1>
      {org.collections.nodes.filter((c) => !c.parent).map((c) => (
        <section key={c.id} aria-labelledby={'c-' + c.id}>
          <h2 id={'c-' + c.id}><Link href={appPath(c.urls.app)}>{c.title}</Link></h2>
          {c.description && <p className="muted">{c.description}</p>}
          <Spaces spaces={org.spaces.nodes.filter((s) => s.parent === c.id)} />
        </section>
      ))}
      <section aria-labelledby="spaces">
        <h2 id="spaces">Spaces</h2>
        <Spaces spaces={org.spaces.nodes.filter((s) => !s.parent)} />
      </section>
      {org.sites.nodes.length > 0 && (
        <section aria-labelledby="sites">
          <h2 id="sites">Sites</h2>
          <ul className="cards">
            {org.sites.nodes.map((s) => (
              <li key={s.id}><Link href={appPath(s.urls.app)}>{s.title}</Link> {s.published ? <span className="badge">published</span> : <span className="badge">not published</span>}</li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
  return <Shell orgs={data?.organizations.nodes} current={orgId}>{body}</Shell>;
}

const CollectionQuery = graphql(`
  query CollectionHome($collectionId: ID!) {
    ...OrganizationSwitcher
    collection(id: $collectionId) {
      id title description organization
      spaces(first: 200) { nodes { ...SpaceCard } }
    }
  }
`);

/** CollectionScreen (urls.app of a collection): its spaces. */
export function CollectionScreen({ collectionId }: { collectionId: string }) {
  const [{ data, error, fetching }] = useQuery({ query: CollectionQuery, variables: { collectionId } });
  const c = data?.collection;
  return (
    <Shell orgs={data?.organizations.nodes} current={c?.organization} crumbs={c ? [{ href: `/o/${c.organization}/`, label: 'Organization' }] : []}>
      {error ? <Problem error={error} /> : !c ? (fetching ? <Loading what="the collection" /> : <Problem error="This collection doesn't exist, or you don't have access to it." />) : (
        <>
          <h1>{c.title}</h1>
          {c.description && <p className="muted">{c.description}</p>}
          <Spaces spaces={c.spaces.nodes} />
        </>
      )}
    </Shell>
  );
}

const SiteQuery = graphql(`
  query SiteHome($orgId: ID!, $siteId: ID!) {
    ...OrganizationSwitcher
    organization(id: $orgId) {
      id title
      site(id: $siteId) { id title published visibility urls { app published } }
    }
  }
`);

/** SiteScreen (urls.app of a site): where it is published. */
export function SiteScreen({ orgId, siteId }: { orgId: string; siteId: string }) {
  const [{ data, error, fetching }] = useQuery({ query: SiteQuery, variables: { orgId, siteId } });
  const site = data?.organization?.site;
  return (
    <Shell orgs={data?.organizations.nodes} current={orgId} crumbs={[{ href: `/o/${orgId}/`, label: data?.organization?.title ?? 'Organization' }]}>
      {error ? <Problem error={error} /> : !site ? (fetching ? <Loading what="the site" /> : <Problem error="This site doesn't exist, or you don't have access to it." />) : (
        <>
          <h1>{site.title}</h1>
          <p>{site.published && site.urls.published ? <>Published at <a href={site.urls.published}>{site.urls.published}</a>.</> : 'This site is not published yet.'}</p>
        </>
      )}
    </Shell>
  );
}
