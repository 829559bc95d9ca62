import type { Block, Inline, Leaf, Mark, Node, Ref, Text } from './types';

// toMarkdown writes a document as the GitBook-flavoured markdown the server stores (the server
// reads it back into the same document, docs/document-format.md). What it cannot write yet is
// listed in lost, and the editor does not save a page that would lose anything.

export type Files = Map<string, string>; // file id → name
export type Written = { markdown: string; lost: string[] };

class Writer {
  lost = new Set<string>();
  constructor(private files: Files) {}

  target(ref: Ref | undefined, what: string): string | undefined {
    if (!ref) return undefined;
    if (ref.kind === 'url' && ref.url !== undefined) return ref.url;
    if (ref.kind === 'file' && ref.file && this.files.has(ref.file)) return '.gitbook/assets/' + this.files.get(ref.file);
    this.lost.add(`${what} to a ${ref.kind}`);
    return undefined;
  }

  dest(url: string): string {
    return /[\s()<>]/.test(url) ? '<' + url.replace(/[<>]/g, (c) => encodeURIComponent(c)) + '>' : url;
  }

  // ---- inlines

  escape(text: string): string {
    return text.replace(/[\\`*_[\]<>~|$&{}!#]/g, '\\$&');
  }

  code(text: string): string {
    const runs = text.match(/`+/g) ?? [];
    const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
    const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '') ? ' ' : '';
    return fence + pad + text + pad + fence;
  }

  open(m: Mark): string {
    switch (m.type) {
      case 'bold': return '**';
      case 'italic': return '*';
      case 'strikethrough': return '~~';
      case 'keyboard': return '<kbd>';
      case 'superscript': return '<sup>';
      case 'subscript': return '<sub>';
      case 'color': {
        const t = String(m.data.text ?? 'default');
        const b = String(m.data.background ?? 'default');
        return `<mark style="${t !== 'default' ? `color:${t};` : ''}${b !== 'default' ? `background-color:${b};` : ''}">`;
      }
      default:
        this.lost.add(`${m.type} mark`);
        return '';
    }
  }

  close(m: Mark): string {
    switch (m.type) {
      case 'keyboard': return '</kbd>';
      case 'superscript': return '</sup>';
      case 'subscript': return '</sub>';
      case 'color': return '</mark>';
      case 'code': return '';
      default: return this.open(m);
    }
  }

  // The marks open in the inline run being written, outermost first. A run keeps a mark open
  // across a link when the text on both sides has it (**see [the docs](…)**), as markdown must:
  // "**see **" would not be bold.
  private run = { out: '', active: [] as Mark[] };

  private same(a: Mark, b: Mark): boolean {
    return a.type === b.type && JSON.stringify(a.data) === JSON.stringify(b.data);
  }

  private closeFrom(i: number) {
    const r = this.run;
    const trailing = r.out.match(/[ \t]*$/)![0];
    r.out = r.out.slice(0, r.out.length - trailing.length);
    for (let j = r.active.length - 1; j >= i; j--) r.out += this.close(r.active[j]);
    r.out += trailing;
    r.active = r.active.slice(0, i);
  }

  private leaf(l: Leaf, inTable: boolean) {
    const r = this.run;
    const marks = l.marks.filter((m) => m.type !== 'code');
    const isCode = l.marks.some((m) => m.type === 'code');
    const ordered = [...r.active.filter((a) => marks.some((m) => this.same(a, m))), ...marks.filter((m) => !r.active.some((a) => this.same(a, m)))];
    let i = 0;
    while (i < r.active.length && i < ordered.length && this.same(r.active[i], ordered[i])) i++;
    if (i < r.active.length) this.closeFrom(i);
    let text = l.text;
    if (ordered.length > r.active.length) {
      const lead = text.match(/^[ \t]*/)![0];
      r.out += lead;
      text = text.slice(lead.length);
      for (const m of ordered.slice(r.active.length)) r.out += this.open(m);
      r.active = ordered;
    }
    r.out += text.split('\n').map((p) => (isCode ? (p ? this.code(p) : '') : this.escape(p))).join(inTable ? '<br>' : '\\\n');
  }

  private walk(nodes: Node[] | undefined, inTable: boolean) {
    for (const n of nodes ?? []) {
      if (n.object === 'text') {
        for (const l of (n as Text).leaves) this.leaf(l, inTable);
        continue;
      }
      const i = n as Inline;
      switch (i.type) {
        case 'link': {
          const url = this.target(i.data.ref, 'a link');
          if (url === undefined) {
            this.walk(i.nodes, inTable);
            break;
          }
          this.run.out += '[';
          const depth = this.run.active.length;
          this.walk(i.nodes, inTable);
          this.closeFrom(Math.min(depth, this.run.active.length));
          this.run.out += `](${this.dest(url)})`;
          break;
        }
        case 'inline-math':
          this.run.out += '$$' + String(i.data.formula ?? '') + '$$';
          break;
        case 'emoji':
          this.run.out += String.fromCodePoint(...String(i.data.code ?? '').split('-').map((c) => parseInt(c, 16)).filter((c) => c > 0));
          break;
        case 'inline-image': {
          const src = this.target(i.data.ref, 'an image');
          if (src !== undefined) this.run.out += `![${this.escape(String(i.data.alt ?? ''))}](${this.dest(src)})`;
          break;
        }
        default:
          this.lost.add(`${i.type} in text`);
      }
    }
  }

  inlines(nodes: Node[] | undefined, inTable = false): string {
    const outer = this.run;
    this.run = { out: '', active: [] };
    this.walk(nodes, inTable);
    this.closeFrom(0);
    const out = this.run.out;
    this.run = outer;
    return out;
  }

  // ---- blocks

  indent(text: string, by: string, first = by): string {
    return text.split('\n').map((line, i) => (i === 0 ? first : line === '' ? '' : by) + line).join('\n');
  }

  blocks(nodes: Node[] | undefined): string {
    // An empty paragraph has no markdown: the server would not keep it anyway.
    return (nodes ?? []).map((n) => this.block(n as Block)).filter((s) => s !== '').join('\n\n');
  }

  plain(nodes: Node[] | undefined): string {
    return (nodes ?? []).map((n) => (n.object === 'text' ? (n as Text).leaves.map((l) => l.text).join('') : this.plain((n as Block).nodes))).join('');
  }

  guardStart(line: string): string {
    // A paragraph must not start like another block (a list, a heading, a quote, a rule).
    return line.replace(/^(\s*)(\d+)([.)])(?=\s|$)/, '$1$2\\$3').replace(/^(\s*)([-+=])(?=\s|$)/, '$1\\$2');
  }

  block(b: Block): string {
    const d = b.data;
    switch (b.type) {
      case 'paragraph':
        if (d.align) this.lost.add('aligned paragraph');
        return this.guardStart(this.inlines(b.nodes));
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        if (d.align) this.lost.add('aligned heading');
        return '#'.repeat(Number(b.type.slice(-1))) + ' ' + this.inlines(b.nodes) + (d.id ? ` {#${d.id}}` : '');
      case 'list-unordered':
      case 'list-ordered':
      case 'list-tasks':
        return (b.nodes ?? []).map((item, i) => {
          const it = item as Block;
          const marker = b.type === 'list-ordered' ? `${(d.start ?? 1) + i}. ` : '- ';
          const box = b.type === 'list-tasks' ? (it.data.checked ? '[x] ' : '[ ] ') : '';
          const body = this.blocks(it.nodes);
          return this.indent(box + body, ' '.repeat(marker.length), marker);
        }).join('\n');
      case 'blockquote':
        return this.blocks(b.nodes).split('\n').map((l) => (l ? '> ' + l : '>')).join('\n');
      case 'divider':
        return '---';
      case 'code': {
        const text = (b.nodes ?? []).map((l) => this.plain((l as Block).nodes)).join('\n');
        const runs = text.match(/^`{3,}/gm) ?? [];
        const fence = '`'.repeat(Math.max(2, ...runs.map((r) => r.length)) + 1);
        const code = `${fence}${d.syntax && d.syntax !== 'text' ? d.syntax : ''}\n${text}\n${fence}`;
        const attrs: string[] = [];
        if (d.title) attrs.push(`title="${d.title}"`);
        if (typeof d.lineNumbers === 'boolean') attrs.push(`lineNumbers="${d.lineNumbers}"`);
        if (d.overflow) attrs.push(`overflow="${d.overflow}"`);
        if (typeof d.fullWidth === 'boolean') attrs.push(`fullWidth="${d.fullWidth}"`);
        if (typeof d.expandable === 'boolean') attrs.push(`expandable="${d.expandable}"`);
        return attrs.length ? `{% code ${attrs.join(' ')} %}\n${code}\n{% endcode %}` : code;
      }
      case 'hint':
        return `{% hint style="${d.style ?? 'info'}" %}\n${this.blocks(b.nodes)}\n{% endhint %}`;
      case 'images':
        return (b.nodes ?? []).map((n) => {
          const img = n as Block;
          const { ref, alt, ...rest } = img.data;
          if (Object.keys(rest).length) this.lost.add('image options (' + Object.keys(rest).join(', ') + ')');
          const src = this.target(ref, 'an image');
          const caption = img.fragments?.find((f) => f.fragment === 'caption');
          const title = caption ? ` "${this.plain(caption.nodes).replace(/["\\]/g, '\\$&')}"` : '';
          return src === undefined ? '' : `![${this.escape(String(alt ?? ''))}](${this.dest(src)}${title})`;
        }).join(' ');
      case 'table':
        return this.table(b);
      case 'math':
        return `$$\n${d.formula ?? ''}\n$$`;
      case 'tabs':
        return `{% tabs %}\n${(b.nodes ?? []).map((t) => `{% tab title="${(t as Block).data.title ?? ''}" %}\n${this.blocks((t as Block).nodes)}\n{% endtab %}`).join('\n\n')}\n{% endtabs %}`;
      case 'expandable': {
        const title = b.fragments?.find((f) => f.fragment === 'expandable-title');
        const body = b.fragments?.find((f) => f.fragment === 'expandable-body');
        return `<details>\n\n<summary>${this.inlines((title?.nodes?.[0] as Block | undefined)?.nodes)}</summary>\n\n${this.blocks(body?.nodes)}\n\n</details>`;
      }
      case 'embed':
        return `{% embed url="${d.url ?? ''}" %}`;
      case 'file': {
        const src = this.target(d.ref, 'a file');
        return src === undefined ? '' : `{% file src="${src}" %}`;
      }
      case 'content-ref': {
        const url = this.target(d.ref, 'a content reference');
        return url === undefined ? '' : `{% content-ref url="${url}" %}\n[${url}](${this.dest(url)})\n{% endcontent-ref %}`;
      }
      default:
        this.lost.add(`${b.type} block`);
        return '';
    }
  }

  table(b: Block): string {
    const d = b.data;
    if (d.view?.type !== 'grid' || d.view?.hideHeader) {
      this.lost.add(d.view?.type !== 'grid' ? `${d.view?.type} table` : 'table without a header');
      return '';
    }
    const cols: string[] = d.view.columns ?? [];
    const def = d.definition ?? {};
    const frags = new Map((b.fragments ?? []).map((f) => [f.fragment, f]));
    const rows = Object.values(d.records ?? {}) as { orderIndex: string; values: Record<string, string> }[];
    rows.sort((x, y) => (x.orderIndex < y.orderIndex ? -1 : x.orderIndex > y.orderIndex ? 1 : 0));
    const cell = (s: string) => s.replace(/\|/g, '\\|');
    const header = '| ' + cols.map((c) => cell(this.escape(String(def[c]?.title ?? '')))).join(' | ') + ' |';
    const align = '|' + cols.map((c) => ({ center: ':---:', right: '---:' } as Record<string, string>)[def[c]?.textAlignment] ?? '---').join('|') + '|';
    const body = rows.map((r) => '| ' + cols.map((c) => {
      const f = frags.get(r.values[c]);
      const blocks = (f?.nodes ?? []) as Block[];
      if (blocks.length > 1 || (blocks[0] && blocks[0].type !== 'paragraph')) this.lost.add('a table cell with more than a line');
      return cell(this.inlines(blocks[0]?.nodes, true));
    }).join(' | ') + ' |');
    return [header, align, ...body].join('\n');
  }
}

export function toMarkdown(doc: { nodes: Block[] }, files: Files = new Map()): Written {
  const w = new Writer(files);
  const markdown = w.blocks(doc.nodes);
  return { markdown: markdown ? markdown + '\n' : '', lost: [...w.lost] };
}
