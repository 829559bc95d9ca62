import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { ChangeRequestStatus } from '../gql/graphql';
import { Link, navigate } from '../router';
import { Loading, Problem, words } from '../errors';
import { Shell } from './Shell';
import { useLive } from '../live';
import { PageView } from './Space';
import { PageTree, firstDocument, flatten, type TreePage } from './PageTree';

export const ChangeRequestRowFragment = graphql(`
  fragment ChangeRequestRow on ChangeRequest { id number subject status createdAt updatedAt outdated createdBy { id displayName } }
`);

const ChangeRequestsQuery = graphql(`
  query ChangeRequestList($spaceId: ID!, $status: ChangeRequestStatus) {
    ...OrganizationSwitcher
    space(id: $spaceId) {
      id title organization
      changeRequestList(first: 100, status: $status) { totalCount nodes { ...ChangeRequestRow } }
    }
  }
`);

// A space's events: a change request opened, changed, merged or closed by someone else.
const SpaceChangesLive = graphql(`
  subscription SpaceChangesLive($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { id type } }
`);

// A change request's events: its edits, reviews, comments, merge and closing.
const ChangeRequestLive = graphql(`
  subscription ChangeRequestLive($spaceId: ID!, $changeRequestId: ID!) { changeRequestEvents(spaceId: $spaceId, changeRequestId: $changeRequestId) { id type } }
`);

const statuses: ChangeRequestStatus[] = ['OPEN', 'DRAFT', 'MERGED', 'ARCHIVED'];
const statusWord: Record<string, string> = { OPEN: 'Open', DRAFT: 'Draft', MERGED: 'Merged', ARCHIVED: 'Archived' };

/** ChangeRequestsScreen lists a space's change requests, filtered by status. */
export function ChangeRequestsScreen({ spaceId }: { spaceId: string }) {
  const [status, setStatus] = useState<ChangeRequestStatus>('OPEN');
  const [{ data, error, fetching }, reread] = useQuery({ query: ChangeRequestsQuery, variables: { spaceId, status } });
  useLive(SpaceChangesLive, { spaceId }, () => reread({ requestPolicy: 'network-only' }));
  const space = data?.space;
  const base = `/s/${spaceId}/`;
  return (
    <Shell orgs={data?.organizations.nodes} current={space?.organization} crumbs={space ? [{ href: `/o/${space.organization}/`, label: 'Organization' }, { href: base, label: space.title }] : []}>
      <h1>Change requests</h1>
      <label className="inline">Show <select value={status} onChange={(e) => setStatus(e.target.value as ChangeRequestStatus)}>
        {statuses.map((s) => <option key={s} value={s}>{statusWord[s]}</option>)}
      </select></label>
      {error ? <Problem error={error} /> : !space ? (fetching ? <Loading what="change requests" /> : <Problem error="This space doesn't exist, or you don't have access to it." />) : space.changeRequestList.nodes.length === 0 ? (
        <p className="muted">No {statusWord[status].toLowerCase()} change requests.</p>
      ) : (
        <ul className="rows">
          {space.changeRequestList.nodes.map((cr) => (
            <li key={cr.id}>
              <Link href={`${base}~/changes/${cr.number}/`}>#{cr.number} {cr.subject || 'Untitled change request'}</Link>
              <span className="muted"> by {cr.createdBy.displayName}, updated {new Date(cr.updatedAt).toLocaleString()}</span>
              {cr.outdated && <span className="badge">outdated</span>}
            </li>
          ))}
        </ul>
      )}
    </Shell>
  );
}

const ChangeRequestQuery = graphql(`
  query ChangeRequestScreen($spaceId: ID!, $number: ID!, $path: String!, $withPage: Boolean!) {
    ...OrganizationSwitcher
    space(id: $spaceId) {
      id title organization
      permissions { edit merge }
      content { ...PageTree }
      changeRequest(id: $number) {
        ...ChangeRequestRow
        content {
          ...PageTree
          pageByPath(path: $path) @include(if: $withPage) { ...PageView }
        }
      }
    }
  }
`);

const MergeChangeRequest = graphql(`
  mutation MergeChangeRequest($spaceId: ID!, $changeRequestId: ID!) {
    mergeChangeRequest(spaceId: $spaceId, changeRequestId: $changeRequestId) { revision result }
  }
`);

export type Change = { page: TreePage; kind: 'added' | 'changed' | 'removed' };

/** changes lists the pages a change request adds, changes or removes against the space's content. */
export function changes(space: TreePage[] | undefined, cr: TreePage[] | undefined): Change[] {
  const before = new Map(flatten(space).map((p) => [p.id, p]));
  const after = flatten(cr);
  const out: Change[] = [];
  for (const p of after) {
    const b = before.get(p.id);
    if (!b) out.push({ page: p, kind: 'added' });
    else if (b.documentId !== p.documentId || b.title !== p.title || b.path !== p.path || b.href !== p.href) out.push({ page: p, kind: 'changed' });
    before.delete(p.id);
  }
  for (const p of before.values()) out.push({ page: p, kind: 'removed' });
  return out;
}

/** ChangeRequestScreen (urls.app of a change request): the pages it changes, a page, and merge. */
export function ChangeRequestScreen({ spaceId, number, pagePath }: { spaceId: string; number: number; pagePath: string }) {
  const [{ data, error, fetching }, reread] = useQuery({
    query: ChangeRequestQuery,
    variables: { spaceId, number: String(number), path: pagePath, withPage: pagePath !== '' },
  });
  const crId = data?.space?.changeRequest?.id;
  useLive(ChangeRequestLive, crId ? { spaceId, changeRequestId: crId } : undefined, () => reread({ requestPolicy: 'network-only' }));
  const [merged, merge] = useMutation(MergeChangeRequest);
  const [conflict, setConflict] = useState('');
  const space = data?.space;
  const cr = space?.changeRequest;
  const base = `/s/${spaceId}/~/changes/${number}/`;
  const crPages = cr?.content.pages as TreePage[] | undefined;
  const list = changes(space?.content.pages as TreePage[] | undefined, crPages);
  const editPath = pagePath || firstDocument(crPages)?.path || '';

  async function doMerge() {
    setConflict('');
    const res = await merge({ spaceId, changeRequestId: cr!.id });
    if (res.data?.mergeChangeRequest.result === 'conflicts') {
      setConflict('The space changed in the same places since this change request was opened. Nothing was merged.');
    } else if (res.data) {
      navigate(`/s/${spaceId}/${pagePath}`);
    }
  }

  return (
    <Shell orgs={data?.organizations.nodes} current={space?.organization} crumbs={space ? [{ href: `/s/${spaceId}/`, label: space.title }, { href: `/s/${spaceId}/~/changes/`, label: 'Change requests' }] : []}>
      {error ? <Problem error={error} /> : !cr ? (fetching ? <Loading what="the change request" /> : <Problem error="This change request doesn't exist, or you don't have access to it." />) : (
        <div className="split">
          <aside className="side">
            <h1 className="side-title">#{cr.number} {cr.subject || 'Untitled change request'}</h1>
            <p><span className="badge">{statusWord[cr.status]}</span> by {cr.createdBy.displayName}</p>
            {cr.outdated && <p className="muted">The space has changed since this change request was opened.</p>}
            {(cr.status === 'OPEN' || cr.status === 'DRAFT') && (
              <div className="actions">
                {space.permissions.edit && <Link className="button" href={`${base}edit/${editPath}`}>Edit pages</Link>}
                {space.permissions.merge && <button type="button" onClick={() => void doMerge()} disabled={merged.fetching}>{merged.fetching ? 'Merging…' : 'Merge'}</button>}
              </div>
            )}
            {merged.error && <p className="problem" role="alert">{words(merged.error)}</p>}
            {conflict && <p className="problem" role="alert">{conflict}</p>}
            <h2>Pages changed</h2>
            {list.length === 0 ? <p className="muted">No page changed yet.</p> : (
              <ul className="changes">
                {list.map((c) => (
                  <li key={c.page.id}>
                    <span className={'badge change-' + c.kind}>{c.kind}</span>{' '}
                    {c.kind === 'removed' ? c.page.title : <Link href={base + c.page.path}>{c.page.title || 'Untitled'}</Link>}
                  </li>
                ))}
              </ul>
            )}
            <h2>All pages</h2>
            <PageTree pages={crPages} base={base} current={pagePath} label="Pages in this change request" />
          </aside>
          <div className="main">
            {pagePath === '' ? <p>Choose a page to see it as this change request would publish it.</p>
              : cr.content.pageByPath ? <PageView page={cr.content.pageByPath} base={base} pages={crPages} />
                : <Problem title="Page not found" error="There is no page at this address in this change request." />}
          </div>
        </div>
      )}
    </Shell>
  );
}
