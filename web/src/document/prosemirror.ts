import type { Block, Doc, Fragment, Inline, Leaf, Mark, Node, Text } from './types';

// The editor edits Bindery's document model directly: toEditor maps a document to the editor's
// (ProseMirror) JSON and fromEditor maps it back. Every node keeps its key and data, so a
// document that goes through the editor unchanged comes back identical (document.test.ts checks
// every example of docs/document-format.md). Blocks the editor has no tool for yet travel as
// opaque nodes that hold their JSON untouched.

export type PMMark = { type: string; attrs?: Record<string, any> };
export type PMNode = { type: string; attrs?: Record<string, any>; content?: PMNode[]; marks?: PMMark[]; text?: string };

const simpleMarks: Record<string, string> = {
  bold: 'bold', italic: 'italic', strikethrough: 'strike', code: 'code',
  keyboard: 'keyboard', superscript: 'superscript', subscript: 'subscript',
};
const markBack = Object.fromEntries(Object.entries(simpleMarks).map(([k, v]) => [v, k]));

let fresh = 0;
/** newKey names a node the editor created (the server gives keys anew when it reads the page). */
export function newKey(): string {
  fresh += 1;
  return 'new' + fresh.toString(36);
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

// ---- document → editor

function markTo(m: Mark): PMMark {
  if (m.type in simpleMarks) return { type: simpleMarks[m.type] };
  return { type: 'otherMark', attrs: { mark: clone(m) } };
}

function leavesTo(leaves: Leaf[], extra: PMMark[] = []): PMNode[] {
  const out: PMNode[] = [];
  for (const l of leaves) {
    const marks = [...l.marks.map(markTo), ...extra];
    l.text.split('\n').forEach((part, i) => {
      if (i > 0) out.push({ type: 'hardBreak', ...(marks.length ? { marks } : {}) });
      if (part !== '') out.push({ type: 'text', text: part, ...(marks.length ? { marks } : {}) });
    });
  }
  return out;
}

function inlinesTo(nodes: Node[] | undefined): PMNode[] {
  const out: PMNode[] = [];
  for (const n of nodes ?? []) {
    if (n.object === 'text') out.push(...leavesTo((n as Text).leaves));
    else if (n.type === 'link' && (n.nodes ?? []).every((c) => c.object === 'text')) {
      const link: PMMark = { type: 'link', attrs: { href: n.data.ref?.kind === 'url' ? n.data.ref.url : null, ref: clone(n.data.ref), key: n.key } };
      for (const c of n.nodes ?? []) out.push(...leavesTo((c as Text).leaves, [link]));
    } else out.push({ type: 'opaqueInline', attrs: { node: clone(n) } });
  }
  return out;
}

function blocksTo(nodes: Node[] | undefined): PMNode[] {
  return (nodes ?? []).map((n) => blockTo(n as Block));
}

function withContent(node: PMNode, content: PMNode[]): PMNode {
  return content.length ? { ...node, content } : node;
}

function blockTo(b: Block, inTasks = false): PMNode {
  const key = b.key;
  switch (b.type) {
    case 'paragraph':
      return withContent({ type: 'paragraph', attrs: { key, data: clone(b.data) } }, inlinesTo(b.nodes));
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      {
      const { id, ...data } = b.data;
      return withContent({ type: 'heading', attrs: { level: Number(b.type.slice(-1)), key, anchor: id ?? null, data } }, inlinesTo(b.nodes));
    }
    case 'list-unordered':
      return { type: 'bulletList', attrs: { key }, content: (b.nodes ?? []).map((i) => blockTo(i as Block)) };
    case 'list-ordered':
      return { type: 'orderedList', attrs: { key, start: b.data.start ?? 1, explicitStart: 'start' in b.data }, content: (b.nodes ?? []).map((i) => blockTo(i as Block)) };
    case 'list-tasks':
      return { type: 'taskList', attrs: { key }, content: (b.nodes ?? []).map((i) => blockTo(i as Block, true)) };
    case 'list-item':
      return inTasks
        ? { type: 'taskItem', attrs: { key, checked: !!b.data.checked }, content: blocksTo(b.nodes) }
        : { type: 'listItem', attrs: { key }, content: blocksTo(b.nodes) };
    case 'blockquote':
      return { type: 'blockquote', attrs: { key }, content: blocksTo(b.nodes) };
    case 'hint':
      return { type: 'hint', attrs: { key, style: b.data.style ?? 'info' }, content: blocksTo(b.nodes) };
    case 'divider':
      return { type: 'horizontalRule', attrs: { key } };
    case 'code': {
      const lines = (b.nodes ?? []) as Block[];
      const text = lines.map((l) => ((l.nodes ?? []) as Text[]).map((t) => t.leaves.map((x) => x.text).join('')).join('')).join('\n');
      const { syntax, ...rest } = b.data;
      return withContent({ type: 'codeBlock', attrs: { key, language: syntax ?? 'text', data: rest, lineKeys: lines.map((l) => l.key) } }, text ? [{ type: 'text', text }] : []);
    }
    case 'images':
      return { type: 'images', attrs: { key, images: clone(b.nodes ?? []) } };
    case 'math': {
      const { formula, ...data } = b.data;
      return { type: 'math', attrs: { key, formula: formula ?? '', data } };
    }
    case 'tabs':
      return {
        type: 'tabs', attrs: { key },
        content: (b.nodes ?? []).map((n) => {
          const item = n as Block;
          return { type: 'tabsItem', attrs: { key: item.key, title: item.data.title ?? '' }, content: blocksTo(item.nodes) };
        }),
      };
    case 'expandable': {
      const title = b.fragments?.find((f) => f.fragment === 'expandable-title');
      const body = b.fragments?.find((f) => f.fragment === 'expandable-body');
      const p = title?.nodes[0];
      if (!title || !body || (b.fragments ?? []).length !== 2 || title.nodes.length !== 1 || p?.type !== 'paragraph') {
        return { type: 'opaqueBlock', attrs: { node: clone(b) } };
      }
      return {
        type: 'expandable', attrs: { key },
        content: [
          withContent({ type: 'expandableTitle', attrs: { key: title.key, paragraphKey: p.key, paragraphData: clone(p.data) } }, inlinesTo(p.nodes)),
          { type: 'expandableBody', attrs: { key: body.key }, content: blocksTo(body.nodes) },
        ],
      };
    }
    case 'table':
      // Grids of text columns are edited as tables; cards and other column kinds stay whole.
      if (b.data.view?.type === 'grid' && Object.values(b.data.definition ?? {}).every((c: any) => c.type === 'text')) return tableTo(b);
      return { type: 'opaqueBlock', attrs: { node: clone(b) } };
    default:
      return { type: 'opaqueBlock', attrs: { node: clone(b) } };
  }
}

function cellParagraph(text: string): PMNode {
  return withContent({ type: 'paragraph', attrs: { key: null } }, text ? [{ type: 'text', text }] : []);
}

function tableTo(b: Block): PMNode {
  const cols: string[] = b.data.view?.columns ?? [];
  const def = b.data.definition ?? {};
  const records = Object.entries(b.data.records ?? {}) as [string, { orderIndex: string; values: Record<string, string> }][];
  records.sort((x, y) => (x[1].orderIndex < y[1].orderIndex ? -1 : x[1].orderIndex > y[1].orderIndex ? 1 : 0));
  const frags = new Map((b.fragments ?? []).map((f) => [f.fragment, f]));
  const header: PMNode = {
    type: 'tableRow', attrs: { key: null },
    content: cols.map((c) => ({ type: 'tableHeader', attrs: { column: c, align: def[c]?.textAlignment ?? 'left' }, content: [cellParagraph(def[c]?.title ?? '')] })),
  };
  const rows: PMNode[] = records.map(([id, r]) => ({
    type: 'tableRow', attrs: { key: id, orderIndex: r.orderIndex },
    content: cols.map((c) => {
      const f = frags.get(r.values[c]);
      return { type: 'tableCell', attrs: { fragment: f ? f.fragment : null, fragmentKey: f ? f.key : null }, content: f ? blocksTo(f.nodes) : [cellParagraph('')] };
    }),
  }));
  return { type: 'table', attrs: { key: b.key, hideHeader: !!b.data.view?.hideHeader, extra: extraOf(b) }, content: [header, ...rows] };
}

function extraOf(b: Block): Record<string, any> {
  const { view, definition, records, ...rest } = b.data;
  void definition; void records;
  const { type, columns, hideHeader, ...viewRest } = view ?? {};
  void type; void columns; void hideHeader;
  return { data: rest, view: viewRest, columns: Object.fromEntries(Object.entries(b.data.definition ?? {}).map(([k, v]: [string, any]) => {
    const { id, title, type: t, textAlignment, ...r } = v;
    void id; void title; void t; void textAlignment;
    return [k, r];
  })) };
}

export function toEditor(doc: Doc): PMNode {
  const content = blocksTo(doc.nodes);
  return { type: 'doc', content: content.length ? content : [{ type: 'paragraph', attrs: { key: null } }] };
}

// ---- editor → document

const sameMarks = (a: Mark[], b: Mark[]) => JSON.stringify(a) === JSON.stringify(b);

function markFrom(m: PMMark): Mark | undefined {
  if (m.type === 'link') return undefined;
  if (m.type === 'otherMark') return clone(m.attrs!.mark);
  return { object: 'mark', type: markBack[m.type] ?? m.type, data: {} };
}

function pushLeaf(leaves: Leaf[], text: string, marks: Mark[]) {
  const last = leaves[leaves.length - 1];
  if (last && sameMarks(last.marks, marks)) last.text += text;
  else leaves.push({ object: 'leaf', text, marks });
}

function inlinesFrom(content: PMNode[] | undefined): Node[] {
  const out: Node[] = [];
  let text: Text | undefined;
  let link: Inline | undefined;
  let linkKey: string | undefined;
  const addText = (target: Node[], s: string, marks: Mark[]) => {
    const last = target[target.length - 1];
    if (last && last.object === 'text') pushLeaf((last as Text).leaves, s, marks);
    else target.push({ object: 'text', leaves: [{ object: 'leaf', text: s, marks }] });
  };
  for (const n of content ?? []) {
    const l = n.marks?.find((m) => m.type === 'link');
    const marks = (n.marks ?? []).map(markFrom).filter((m): m is Mark => !!m);
    const s = n.type === 'text' ? n.text ?? '' : n.type === 'hardBreak' ? '\n' : undefined;
    if (l && s !== undefined) {
      const key = l.attrs?.key ?? undefined;
      if (!link || (key ?? 'href:' + l.attrs?.href) !== linkKey) {
        link = { object: 'inline', type: 'link', key: key ?? newKey(), data: { ref: l.attrs?.ref ?? { kind: 'url', url: l.attrs?.href ?? '' } }, nodes: [] };
        linkKey = key ?? 'href:' + l.attrs?.href;
        out.push(link);
      }
      addText(link.nodes!, s, marks);
      text = undefined;
      continue;
    }
    link = undefined;
    linkKey = undefined;
    if (s !== undefined) {
      addText(out, s, marks);
      text = out[out.length - 1] as Text;
    } else if (n.type === 'opaqueInline') {
      out.push(clone(n.attrs!.node));
      text = undefined;
    }
  }
  void text;
  if (out.length === 0 || out.every((n) => n.object !== 'text') && out.length === 0) {
    return [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }];
  }
  return out;
}

function block(type: string, key: string | null | undefined, data: Record<string, any>, nodes?: Node[]): Block {
  const b: Block = { object: 'block', type, key: key ?? newKey(), data };
  if (nodes) b.nodes = nodes;
  return b;
}

function blocksFrom(content: PMNode[] | undefined): Block[] {
  const out = (content ?? []).map(blockFrom);
  return out.length ? out : [block('paragraph', null, {}, inlinesFrom([]))];
}

function blockFrom(n: PMNode): Block {
  const a = n.attrs ?? {};
  switch (n.type) {
    case 'paragraph':
      return block('paragraph', a.key, clone(a.data ?? {}), inlinesFrom(n.content));
    case 'heading':
      return block(`heading-${Math.min(3, Math.max(1, a.level ?? 1))}`, a.key, { ...clone(a.data ?? {}), ...(a.anchor ? { id: a.anchor } : {}) }, inlinesFrom(n.content));
    case 'bulletList':
      return block('list-unordered', a.key, {}, (n.content ?? []).map((i) => block('list-item', i.attrs?.key, {}, blocksFrom(i.content))));
    case 'orderedList':
      return block('list-ordered', a.key, a.explicitStart || (a.start ?? 1) !== 1 ? { start: a.start } : {}, (n.content ?? []).map((i) => block('list-item', i.attrs?.key, {}, blocksFrom(i.content))));
    case 'taskList':
      return block('list-tasks', a.key, {}, (n.content ?? []).map((i) => block('list-item', i.attrs?.key, { checked: !!i.attrs?.checked }, blocksFrom(i.content))));
    case 'blockquote':
      return block('blockquote', a.key, {}, blocksFrom(n.content));
    case 'hint':
      return block('hint', a.key, { style: a.style ?? 'info' }, blocksFrom(n.content));
    case 'horizontalRule':
      return { object: 'block', type: 'divider', key: a.key ?? newKey(), isVoid: true, data: {} };
    case 'codeBlock': {
      const text = (n.content ?? []).map((t) => t.text ?? '').join('');
      const keys: string[] = a.lineKeys ?? [];
      const lines = text.split('\n').map((line, i) => block('code-line', keys[i], {}, [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }]));
      return block('code', a.key, sortKeys({ ...(a.data ?? {}), syntax: a.language || 'text' }), lines);
    }
    case 'images':
      return { object: 'block', type: 'images', key: a.key ?? newKey(), isVoid: false, data: {}, nodes: clone(a.images ?? []) };
    case 'math':
      return { object: 'block', type: 'math', key: a.key ?? newKey(), isVoid: true, data: { ...clone(a.data ?? {}), formula: a.formula ?? '' } };
    case 'tabs':
      return block('tabs', a.key, {}, (n.content ?? []).map((it) => block('tabs-item', it.attrs?.key, { title: it.attrs?.title ?? '' }, blocksFrom(it.content))));
    case 'expandable': {
      const [title, body] = n.content ?? [];
      const t = title?.attrs ?? {};
      return {
        object: 'block', type: 'expandable', key: a.key ?? newKey(), isVoid: true, data: {},
        fragments: [
          { object: 'fragment', key: t.key ?? newKey(), fragment: 'expandable-title', type: 'expandable-title', nodes: [block('paragraph', t.paragraphKey, clone(t.paragraphData ?? {}), inlinesFrom(title?.content))] },
          { object: 'fragment', key: body?.attrs?.key ?? newKey(), fragment: 'expandable-body', type: 'expandable-body', nodes: blocksFrom(body?.content) },
        ],
      };
    }
    case 'table':
      return tableFrom(n);
    case 'opaqueBlock':
      return clone(a.node);
    default:
      return block('paragraph', null, {}, inlinesFrom(n.content));
  }
}

function sortKeys(o: Record<string, any>): Record<string, any> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}

function plain(content: PMNode[] | undefined): string {
  return (content ?? []).map((c) => (c.text ?? '') + plain(c.content)).join('');
}

function tableFrom(n: PMNode): Block {
  const a = n.attrs ?? {};
  const extra = a.extra ?? { data: {}, view: {}, columns: {} };
  const [header, ...rows] = n.content ?? [];
  const cols: string[] = (header?.content ?? []).map((c) => c.attrs?.column ?? newKey());
  const definition: Record<string, any> = {};
  (header?.content ?? []).forEach((c, i) => {
    definition[cols[i]] = { id: cols[i], title: plain(c.content), type: 'text', textAlignment: c.attrs?.align ?? 'left', ...(extra.columns?.[cols[i]] ?? {}) };
  });
  const records: Record<string, any> = {};
  const fragments: Fragment[] = [];
  rows.forEach((row, i) => {
    const id = row.attrs?.key ?? newKey();
    const values: Record<string, string> = {};
    (row.content ?? []).forEach((cell, j) => {
      const name = cell.attrs?.fragment ?? newKey();
      values[cols[j]] = name;
      fragments.push({ object: 'fragment', key: cell.attrs?.fragmentKey ?? name, fragment: name, nodes: blocksFrom(cell.content) });
    });
    records[id] = { orderIndex: row.attrs?.orderIndex ?? orderIndex(i), values };
  });
  return {
    object: 'block', type: 'table', key: a.key ?? newKey(), isVoid: true,
    data: { ...extra.data, view: { type: 'grid', columns: cols, hideHeader: !!a.hideHeader, ...extra.view }, definition, records },
    fragments,
  };
}

/** orderIndex is the sort key of the i-th row, as the server writes them ("a0", "a1", …). */
function orderIndex(i: number): string {
  let digits = 1;
  let n = i;
  let span = 36;
  while (n >= span) {
    n -= span;
    digits += 1;
    span *= 36;
  }
  return String.fromCharCode(96 + digits) + n.toString(36).padStart(digits, '0');
}

export function fromEditor(pm: PMNode): Doc {
  const content = pm.content ?? [];
  const empty = content.length === 1 && content[0].type === 'paragraph' && !content[0].content && !content[0].attrs?.key;
  return { object: 'document', data: {}, nodes: empty ? [] : content.map(blockFrom) };
}
