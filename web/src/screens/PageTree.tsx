import { graphql } from '../gql';
import { Link } from '../router';
import type { Ref } from '../document/types';

// The page tree: four levels in one request (the query's price grows twentyfold per level;
// deeper pages are not listed yet, docs/app.md).
export const PageTreeFragment = graphql(`
  fragment PageTreeItem on RevisionPage { id type title path href documentId }
  fragment PageTree on Revision {
    id
    pages {
      ...PageTreeItem
      pages { ...PageTreeItem pages { ...PageTreeItem pages { ...PageTreeItem } } }
    }
  }
`);

export type TreePage = { id: string; type: string; title: string; path: string; href?: string | null; documentId?: string | null; pages?: TreePage[] };

export function flatten(pages: TreePage[] | undefined, out: TreePage[] = []): TreePage[] {
  for (const p of pages ?? []) {
    out.push(p);
    flatten(p.pages, out);
  }
  return out;
}

export function firstDocument(pages: TreePage[] | undefined): TreePage | undefined {
  return flatten(pages).find((p) => p.type === 'DOCUMENT');
}

/** pageOfLink is the page a relative link to a markdown file names (as GitBook writes links
 * between pages: ../guide/install.md), from the page at `from`; undefined for other links. */
export function pageOfLink(url: string, from: string, byPath: Map<string, TreePage>): TreePage | undefined {
  if (/^[a-z][a-z0-9+.-]*:|^\/\/|^#/i.test(url)) return undefined;
  const [file] = url.split('#');
  if (!/\.md$/i.test(file)) return undefined;
  const parts = from.split('/').slice(0, -1);
  for (const seg of decodeURIComponent(file).replace(/\.md$/i, '').split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  if (parts[parts.length - 1]?.toLowerCase() === 'readme') parts.pop();
  return byPath.get(parts.join('/'));
}

/** resolver maps a document's references to app URLs (pages of this space) or their URL. */
export function resolver(base: string, pages: TreePage[] | undefined, from = '') {
  const all = flatten(pages);
  const byId = new Map(all.map((p) => [p.id, p]));
  const byPath = new Map(all.map((p) => [p.path, p]));
  return {
    href(ref: Ref): string | undefined {
      if (!ref) return undefined;
      if (ref.kind === 'url' && ref.url !== undefined) {
        const page = pageOfLink(ref.url, from, byPath);
        const anchor = ref.url.includes('#') ? '#' + ref.url.split('#')[1] : '';
        return page ? base + page.path + anchor : ref.url;
      }
      if (ref.kind === 'page' && ref.page && byId.has(ref.page)) return base + byId.get(ref.page)!.path + (ref.anchor ? '#' + ref.anchor : '');
      return undefined;
    },
  };
}

/** PageTree is the space's navigation: groups as headings, nested pages, link pages. */
export function PageTree({ pages, base, current, label }: { pages?: TreePage[]; base: string; current?: string; label: string }) {
  if (!pages || pages.length === 0) return <p className="muted">No pages yet.</p>;
  return (
    <nav aria-label={label} className="tree">
      <TreeList pages={pages} base={base} current={current} />
    </nav>
  );
}

function TreeList({ pages, base, current }: { pages: TreePage[]; base: string; current?: string }) {
  return (
    <ul>
      {pages.map((p) => (
        <li key={p.id} className={'page-' + p.type.toLowerCase()}>
          {p.type === 'GROUP' ? (
            <span className="group">{p.title}</span>
          ) : p.type === 'LINK' ? (
            <a href={p.href ?? undefined} rel="noopener">{p.title} <span aria-hidden="true">↗</span></a>
          ) : (
            <Link href={base + p.path} aria-current={p.path === current ? 'page' : undefined}>{p.title || 'Untitled'}</Link>
          )}
          {p.pages && p.pages.length > 0 && <TreeList pages={p.pages} base={base} current={current} />}
        </li>
      ))}
    </ul>
  );
}
