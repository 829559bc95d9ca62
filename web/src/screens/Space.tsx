import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useLive } from '../live';
import { graphql } from '../gql';
import { Link, navigate } from '../router';
import { Loading, Problem, words } from '../errors';
import { Render } from '../document/Render';
import type { Doc } from '../document/types';
import { Shell } from './Shell';
import { PageTree, firstDocument, resolver, type TreePage } from './PageTree';

export const PageViewFragment = graphql(`
  fragment PageView on RevisionPage { id type title description path document }
`);

const SpaceQuery = graphql(`
  query SpaceScreen($spaceId: ID!, $path: String!, $withPage: Boolean!) {
    ...OrganizationSwitcher
    space(id: $spaceId) {
      id title organization changeRequestsOpen editMode
      permissions { edit }
      content {
        ...PageTree
        pageByPath(path: $path) @include(if: $withPage) { ...PageView }
      }
    }
  }
`);

const CreateChangeRequest = graphql(`
  mutation CreateChangeRequest($spaceId: ID!, $subject: String) {
    createChangeRequest(spaceId: $spaceId, input: { subject: $subject }) { id number subject status urls { app } }
  }
`);

/** PageView shows a page as it will be published. */
export function PageView({ page, base, pages }: { page: { title: string; path: string; description?: string | null; document?: unknown }; base: string; pages?: TreePage[] }) {
  return (
    <article className="page">
      <h1>{page.title || 'Untitled'}</h1>
      {page.description && <p className="lead">{page.description}</p>}
      {page.document ? <Render doc={page.document as Doc} resolve={resolver(base, pages, page.path)} /> : null}
    </article>
  );
}

// A space's events: pages edited, change requests merged, settings changed by others.
const SpaceLive = graphql(`
  subscription SpaceLive($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { id type } }
`);

/** SpaceScreen (urls.app of a space or of one of its pages): the page tree and a page. */
export function SpaceScreen({ spaceId, pagePath }: { spaceId: string; pagePath: string }) {
  const [{ data, error, fetching }, reread] = useQuery({ query: SpaceQuery, variables: { spaceId, path: pagePath, withPage: pagePath !== '' } });
  useLive(SpaceLive, { spaceId }, () => reread({ requestPolicy: 'network-only' }));
  const [created, create] = useMutation(CreateChangeRequest);
  const [subject, setSubject] = useState('');
  const space = data?.space;
  const pages = space?.content.pages as TreePage[] | undefined;
  const base = `/s/${spaceId}/`;
  const first = firstDocument(pages);
  useEffect(() => {
    if (space && pagePath === '' && first) navigate(base + first.path, true);
  }, [space, pagePath, first, base]);
  const page = space?.content.pageByPath;

  async function startEditing() {
    const res = await create({ spaceId, subject: subject || null });
    const cr = res.data?.createChangeRequest;
    if (cr) navigate(`/s/${spaceId}/~/changes/${cr.number}/edit/${page?.path ?? first?.path ?? ''}`);
  }

  return (
    <Shell orgs={data?.organizations.nodes} current={space?.organization} crumbs={space ? [{ href: `/o/${space.organization}/`, label: 'Organization' }, { href: base, label: space.title }] : []}>
      {error ? <Problem error={error} /> : !space ? (fetching ? <Loading what="the space" /> : <Problem error="This space doesn't exist, or you don't have access to it." />) : (
        <div className="split">
          <aside className="side">
            <h2 className="side-title">{space.title}</h2>
            <p><Link href={`/s/${spaceId}/~/changes/`}>Change requests ({space.changeRequestsOpen} open)</Link></p>
            {space.permissions.edit && (
              <form className="stack small" onSubmit={(e) => { e.preventDefault(); void startEditing(); }}>
                <label>What will you change?<input value={subject} onChange={(e) => setSubject(e.target.value)} placeholder="Subject of the change request" /></label>
                <button type="submit" disabled={created.fetching}>{created.fetching ? 'Opening…' : 'Edit in a change request'}</button>
                {created.error && <p className="problem" role="alert">{words(created.error)}</p>}
              </form>
            )}
            <PageTree pages={pages} base={base} current={page?.path} label="Pages" />
          </aside>
          <div className="main">
            {pagePath === '' ? (first ? <Loading what="the first page" /> : <p>This space has no pages yet.</p>)
              : page ? <PageView page={page} base={base} pages={pages} />
                : <Problem title="Page not found" error="There is no page at this address in the space. Choose one in the list of pages." />}
          </div>
        </div>
      )}
    </Shell>
  );
}
