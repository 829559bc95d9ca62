import type { ReactNode } from 'react';
import type { Block, Doc, Fragment, Inline, Leaf, Node, Ref } from './types';

// Render shows a page as it will be published: the same blocks the reader renders, as React
// elements (user text is never injected as HTML).

export type Resolve = { href(ref: Ref): string | undefined };

const hintLabel: Record<string, string> = { info: 'Info', warning: 'Warning', danger: 'Danger', success: 'Success' };

function leaf(l: Leaf, i: number): ReactNode {
  let out: ReactNode = l.text.includes('\n')
    ? l.text.split('\n').flatMap((part, j) => (j === 0 ? [part] : [<br key={j} />, part]))
    : l.text;
  for (const m of [...l.marks].reverse()) {
    switch (m.type) {
      case 'bold': out = <strong>{out}</strong>; break;
      case 'italic': out = <em>{out}</em>; break;
      case 'strikethrough': out = <s>{out}</s>; break;
      case 'code': out = <code>{out}</code>; break;
      case 'keyboard': out = <kbd>{out}</kbd>; break;
      case 'superscript': out = <sup>{out}</sup>; break;
      case 'subscript': out = <sub>{out}</sub>; break;
      case 'color': out = <mark className={`color-${String(m.data.text ?? 'default').replace('$', '')} bg-${String(m.data.background ?? 'default').replace('$', '')}`}>{out}</mark>; break;
    }
  }
  return <span key={i}>{out}</span>;
}

function inlines(nodes: Node[] | undefined, r: Resolve): ReactNode[] {
  return (nodes ?? []).map((n, i) => {
    if (n.object === 'text') return <span key={i}>{n.leaves.map(leaf)}</span>;
    return inline(n as Inline, r);
  });
}

function inline(n: Inline, r: Resolve): ReactNode {
  switch (n.type) {
    case 'link': {
      const href = r.href(n.data.ref as Ref);
      return <a key={n.key} href={href}>{inlines(n.nodes, r)}</a>;
    }
    case 'inline-math':
      return <code key={n.key} className="math">{String(n.data.formula ?? '')}</code>;
    case 'emoji':
      return <span key={n.key}>{String.fromCodePoint(...String(n.data.code ?? '').split('-').map((c) => parseInt(c, 16)).filter((c) => c > 0))}</span>;
    case 'inline-image':
      return <span key={n.key} className="muted">[image{n.data.alt ? `: ${n.data.alt}` : ''}]</span>;
    default:
      return <span key={n.key}>{inlines(n.nodes, r)}</span>;
  }
}

function fragment(b: Block, name: string): Fragment | undefined {
  return b.fragments?.find((f) => f.fragment === name);
}

function blocks(nodes: Node[] | undefined, r: Resolve): ReactNode[] {
  return (nodes ?? []).map((n) => block(n as Block, r));
}

function textOf(nodes: Node[] | undefined): string {
  return (nodes ?? []).map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : textOf((n as Block).nodes))).join('');
}

function block(b: Block, r: Resolve): ReactNode {
  const k = b.key;
  switch (b.type) {
    case 'paragraph': return <p key={k}>{inlines(b.nodes, r)}</p>;
    case 'heading-1': return <h2 key={k} id={b.data.id}>{inlines(b.nodes, r)}</h2>;
    case 'heading-2': return <h3 key={k} id={b.data.id}>{inlines(b.nodes, r)}</h3>;
    case 'heading-3': return <h4 key={k} id={b.data.id}>{inlines(b.nodes, r)}</h4>;
    case 'list-unordered': return <ul key={k}>{blocks(b.nodes, r)}</ul>;
    case 'list-ordered': return <ol key={k} start={b.data.start}>{blocks(b.nodes, r)}</ol>;
    case 'list-tasks': return <ul key={k} className="tasks">{blocks(b.nodes, r)}</ul>;
    case 'list-item':
      return (
        <li key={k}>
          {typeof b.data.checked === 'boolean' && <input type="checkbox" checked={b.data.checked} readOnly disabled aria-label={b.data.checked ? 'done' : 'to do'} />}
          {blocks(b.nodes, r)}
        </li>
      );
    case 'blockquote': return <blockquote key={k}>{blocks(b.nodes, r)}</blockquote>;
    case 'divider': return <hr key={k} />;
    case 'code':
      return (
        <figure key={k} className="code">
          {b.data.title && <figcaption>{b.data.title}</figcaption>}
          <pre tabIndex={0} aria-label={`${b.data.syntax ?? 'text'} code`}><code data-lang={b.data.syntax}>{(b.nodes ?? []).map((l) => textOf((l as Block).nodes)).join('\n')}</code></pre>
        </figure>
      );
    case 'hint':
      return (
        <aside key={k} className={`hint hint-${b.data.style ?? 'info'}`} aria-label={hintLabel[b.data.style] ?? 'Info'}>
          {blocks(b.nodes, r)}
        </aside>
      );
    case 'images':
      return <div key={k} className="images">{blocks(b.nodes, r)}</div>;
    case 'image': {
      const ref = b.data.ref as Ref;
      const src = ref?.kind === 'url' ? ref.url : r.href(ref);
      const caption = fragment(b, 'caption');
      return (
        <figure key={k}>
          {src ? <img src={src} alt={b.data.alt ?? ''} loading="lazy" /> : <span className="muted">[image{b.data.alt ? `: ${b.data.alt}` : ''}]</span>}
          {caption && <figcaption>{blocks(caption.nodes, r)}</figcaption>}
        </figure>
      );
    }
    case 'table': {
      const cols: string[] = b.data.view?.columns ?? [];
      const def = b.data.definition ?? {};
      const rows = Object.values(b.data.records ?? {}) as { orderIndex: string; values: Record<string, string> }[];
      rows.sort((a, c) => (a.orderIndex < c.orderIndex ? -1 : a.orderIndex > c.orderIndex ? 1 : 0));
      return (
        <div key={k} className="table" tabIndex={0} role="region" aria-label="Table">
          <table>
            {!b.data.view?.hideHeader && <thead><tr>{cols.map((c) => <th key={c} style={{ textAlign: def[c]?.textAlignment }}>{def[c]?.title}</th>)}</tr></thead>}
            <tbody>
              {rows.map((row, i) => (
                <tr key={i}>{cols.map((c) => <td key={c} style={{ textAlign: def[c]?.textAlignment }}>{blocks(fragment(b, row.values[c])?.nodes, r)}</td>)}</tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case 'math': return <pre key={k} className="math"><code>{String(b.data.formula ?? '')}</code></pre>;
    case 'tabs':
      return <div key={k} className="tabs">{blocks(b.nodes, r)}</div>;
    case 'tabs-item':
      return <section key={k} className="tab"><h5>{b.data.title}</h5>{blocks(b.nodes, r)}</section>;
    case 'expandable': {
      const summary = fragment(b, 'expandable-title');
      const body = fragment(b, 'expandable-body');
      return <details key={k}><summary>{summary ? textOf(summary.nodes) : 'Details'}</summary>{blocks(body?.nodes, r)}</details>;
    }
    case 'embed':
      return <p key={k}><a href={String(b.data.url ?? '')}>{String(b.data.url ?? '')}</a></p>;
    case 'file':
    case 'content-ref': {
      const href = r.href(b.data.ref as Ref);
      return <p key={k} className="card">{href ? <a href={href}>{b.data.ref?.url ?? b.data.ref?.file ?? b.data.ref?.page ?? 'link'}</a> : '[reference]'}</p>;
    }
    default:
      return <div key={k}>{b.nodes ? blocks(b.nodes, r) : null}</div>;
  }
}

export function Render({ doc, resolve }: { doc: Doc; resolve: Resolve }) {
  return <div className="document">{blocks(doc.nodes, resolve)}</div>;
}
