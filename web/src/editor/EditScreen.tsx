import { useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { graphql } from '../gql';
import { Link } from '../router';
import { Loading, Problem, words } from '../errors';
import { Shell } from '../screens/Shell';
import { PageTree, type TreePage } from '../screens/PageTree';
import { allExtensions } from './extensions';
import { fromEditor, newKey, toEditor, type PMNode } from '../document/prosemirror';
import { toMarkdown } from '../document/markdown';
import type { Doc } from '../document/types';

const EditPageQuery = graphql(`
  query EditPage($spaceId: ID!, $number: ID!, $path: String!) {
    ...OrganizationSwitcher
    space(id: $spaceId) {
      id title organization
      changeRequest(id: $number) {
        id number subject status
        content {
          ...PageTree
          pageByPath(path: $path) { id type title path document }
          files(first: 1000) { nodes { id name } }
        }
      }
    }
  }
`);

const SavePage = graphql(`
  mutation SavePage($spaceId: ID!, $changeRequestId: ID!, $pageId: ID!, $title: String, $markdown: String) {
    updatePage(target: { spaceId: $spaceId, changeRequestId: $changeRequestId }, pageId: $pageId, input: { title: $title, markdown: $markdown }) {
      revision { id }
      page { id title path }
    }
  }
`);

type SaveState = { kind: 'saved' | 'dirty' | 'saving' | 'failed' | 'blocked'; message?: string };

function Tool({ editor, label, active, run, shortcut }: { editor: Editor; label: string; active?: boolean; run: (e: Editor) => void; shortcut?: string }) {
  return (
    <button type="button" aria-pressed={active ?? undefined} title={shortcut ? `${label} (${shortcut})` : label} onClick={() => run(editor)}>
      {label}
    </button>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const s = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'), italic: e.isActive('italic'), strike: e.isActive('strike'), code: e.isActive('code'),
      h1: e.isActive('heading', { level: 1 }), h2: e.isActive('heading', { level: 2 }), h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'), ordered: e.isActive('orderedList'), tasks: e.isActive('taskList'),
      quote: e.isActive('blockquote'), codeBlock: e.isActive('codeBlock'), hint: e.isActive('hint'), link: e.isActive('link'),
      language: e.isActive('codeBlock') ? String(e.getAttributes('codeBlock').language ?? 'text') : '',
      hintStyle: e.isActive('hint') ? String(e.getAttributes('hint').style ?? 'info') : '',
      inTab: e.isActive('tabsItem'),
      tabTitle: e.isActive('tabsItem') ? String(e.getAttributes('tabsItem').title ?? '') : '',
    }),
  });
  const c = () => editor.chain().focus();
  return (
    <div className="editor-bar" role="toolbar" aria-label="Formatting">
      <Tool editor={editor} label="Bold" shortcut="Ctrl+B" active={s.bold} run={() => c().toggleBold().run()} />
      <Tool editor={editor} label="Italic" shortcut="Ctrl+I" active={s.italic} run={() => c().toggleItalic().run()} />
      <Tool editor={editor} label="Strike" active={s.strike} run={() => c().toggleStrike().run()} />
      <Tool editor={editor} label="Code" shortcut="Ctrl+E" active={s.code} run={() => c().toggleCode().run()} />
      <Tool editor={editor} label="Link" active={s.link} run={() => {
        const url = window.prompt('Link to (an address, or a page such as other-page.md); empty to remove', editor.getAttributes('link').href ?? '');
        if (url === null) return;
        if (url === '') c().unsetLink().run();
        else c().extendMarkRange('link').setLink({ href: url }).updateAttributes('link', { ref: { kind: 'url', url }, key: null }).run();
      }} />
      <Tool editor={editor} label="Heading 1" active={s.h1} run={() => c().toggleHeading({ level: 1 }).run()} />
      <Tool editor={editor} label="Heading 2" active={s.h2} run={() => c().toggleHeading({ level: 2 }).run()} />
      <Tool editor={editor} label="Heading 3" active={s.h3} run={() => c().toggleHeading({ level: 3 }).run()} />
      <Tool editor={editor} label="Bullet list" active={s.bullet} run={() => c().toggleBulletList().run()} />
      <Tool editor={editor} label="Numbered list" active={s.ordered} run={() => c().toggleOrderedList().run()} />
      <Tool editor={editor} label="Task list" active={s.tasks} run={() => c().toggleTaskList().run()} />
      <Tool editor={editor} label="Quote" active={s.quote} run={() => c().toggleBlockquote().run()} />
      <Tool editor={editor} label="Code block" active={s.codeBlock} run={() => c().toggleCodeBlock().run()} />
      <Tool editor={editor} label="Hint" active={s.hint} run={() => (s.hint ? c().lift('hint').run() : c().wrapIn('hint').run())} />
      <Tool editor={editor} label="Image" run={() => {
        const url = window.prompt('Image address (https://…)');
        if (!url) return;
        const alt = window.prompt('Describe the image for people who cannot see it') ?? '';
        c().insertContent({ type: 'images', attrs: { key: null, images: [{ object: 'block', type: 'image', key: newKey(), isVoid: true, data: alt ? { alt, ref: { kind: 'url', url } } : { ref: { kind: 'url', url } }, fragments: [] }] } }).run();
      }} />
      <Tool editor={editor} label="Table" run={() => c().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()} />
      <Tool editor={editor} label="Divider" run={() => c().setHorizontalRule().run()} />
      <Tool editor={editor} label="Formula" run={(ed) => {
        const selected = (ed.state.selection as { node?: { type: { name: string }; attrs: Record<string, any> } }).node;
        const isMath = selected?.type.name === 'math';
        const formula = window.prompt('Formula (TeX)', isMath ? String(selected!.attrs.formula) : '');
        if (formula === null) return;
        if (isMath) c().updateAttributes('math', { formula }).run();
        else c().insertContent({ type: 'math', attrs: { formula } }).run();
      }} />
      <Tool editor={editor} label="Tabs" run={() => c().insertContent({ type: 'tabs', content: [{ type: 'tabsItem', attrs: { title: 'Tab 1' }, content: [{ type: 'paragraph' }] }] }).run()} />
      <Tool editor={editor} label="Expandable" run={() => c().insertContent({ type: 'expandable', content: [
        { type: 'expandableTitle', content: [{ type: 'text', text: 'Details' }] }, { type: 'expandableBody', content: [{ type: 'paragraph' }] }] }).run()} />
      {s.codeBlock && (
        <label className="inline">Language
          <input size={10} value={s.language} onChange={(e) => editor.chain().updateAttributes('codeBlock', { language: e.target.value || 'text' }).run()} />
        </label>
      )}
      {s.inTab && (
        <>
          <label className="inline">Tab title
            <input size={14} value={s.tabTitle} onChange={(e) => editor.chain().updateAttributes('tabsItem', { title: e.target.value }).run()} />
          </label>
          <Tool editor={editor} label="Add tab" run={(ed) => {
            const { $from } = ed.state.selection;
            for (let d = $from.depth; d > 0; d--) {
              if ($from.node(d).type.name === 'tabsItem') {
                ed.chain().focus().insertContentAt($from.after(d), { type: 'tabsItem', attrs: { title: 'New tab' }, content: [{ type: 'paragraph' }] }).run();
                return;
              }
            }
          }} />
        </>
      )}
      {s.hint && (
        <label className="inline">Hint style
          <select value={s.hintStyle} onChange={(e) => editor.chain().focus().updateAttributes('hint', { style: e.target.value }).run()}>
            {['info', 'success', 'warning', 'danger'].map((v) => <option key={v} value={v}>{v}</option>)}
          </select>
        </label>
      )}
    </div>
  );
}

function PageEditor({ spaceId, crId, page, files }: { spaceId: string; crId: string; page: { id: string; title: string; document?: unknown }; files: Map<string, string> }) {
  const [, save] = useMutation(SavePage);
  const [title, setTitle] = useState(page.title);
  const [state, setState] = useState<SaveState>({ kind: 'saved' });
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef({ title: page.title, doc: page.document as Doc });
  const initial = useMemo(() => toMarkdown((page.document as Doc) ?? { nodes: [] }, files), [page.document, files]);
  const blocked = initial.lost.length > 0;

  // Saves run one after the other, each with the latest content: an older save never lands after
  // a newer one.
  const saving = useRef<Promise<void>>(Promise.resolve());
  function flush() {
    window.clearTimeout(timer.current);
    saving.current = saving.current.then(async () => {
      const written = toMarkdown(latest.current.doc ?? { nodes: [] }, files);
      if (written.lost.length) {
        setState({ kind: 'failed', message: `Not saved: the editor cannot write ${written.lost.join(', ')} yet.` });
        return;
      }
      setState({ kind: 'saving' });
      const res = await save({ spaceId, changeRequestId: crId, pageId: page.id, title: latest.current.title, markdown: written.markdown });
      setState((now) => (res.error ? { kind: 'failed', message: 'Not saved. ' + words(res.error) } : now.kind === 'saving' ? { kind: 'saved' } : now));
    });
    return saving.current;
  }
  const schedule = () => {
    setState({ kind: 'dirty' });
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void flush(), 800);
  };

  const editor = useEditor({
    extensions: allExtensions(),
    content: toEditor((page.document as Doc) ?? { object: 'document', data: {}, nodes: [] }),
    editable: !blocked,
    injectCSS: false,
    immediatelyRender: true,
    editorProps: { attributes: { 'aria-label': 'Page content', role: 'textbox', 'aria-multiline': 'true' } },
    onUpdate: ({ editor: e }) => {
      latest.current.doc = fromEditor(e.getJSON() as PMNode);
      schedule();
    },
  });
  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => { if (state.kind === 'dirty' || state.kind === 'saving') e.preventDefault(); };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [state.kind]);

  return (
    <div className="page">
      {blocked && (
        <div className="problem" role="alert">
          <p>This page holds content the editor cannot write back yet ({initial.lost.join(', ')}). To keep it safe, the page is read-only here.</p>
        </div>
      )}
      <label className="visually-hidden" htmlFor="page-title">Page title</label>
      <input id="page-title" className="title-input" value={title} disabled={blocked}
        onChange={(e) => { setTitle(e.target.value); latest.current.title = e.target.value; schedule(); }} />
      {editor && !blocked && <Toolbar editor={editor} />}
      <EditorContent editor={editor} className="document" />
      <p className="save-state" role="status" aria-live="polite" data-state={state.kind}>
        {state.kind === 'saved' ? 'All changes saved' : state.kind === 'saving' ? 'Saving…' : state.kind === 'dirty' ? 'Unsaved changes' : state.message}
      </p>
    </div>
  );
}

/** EditScreen edits a page of a change request; every change is saved to it as you type. */
export default function EditScreen({ spaceId, number, pagePath }: { spaceId: string; number: number; pagePath: string }) {
  const [{ data, error, fetching }] = useQuery({ query: EditPageQuery, variables: { spaceId, number: String(number), path: pagePath }, requestPolicy: 'network-only' });
  const space = data?.space;
  const cr = space?.changeRequest;
  const page = cr?.content.pageByPath;
  const files = useMemo(() => new Map((cr?.content.files.nodes ?? []).map((f) => [f.id, f.name])), [cr]);
  const base = `/s/${spaceId}/~/changes/${number}/`;
  return (
    <Shell orgs={data?.organizations.nodes} current={space?.organization} crumbs={space ? [{ href: `/s/${spaceId}/`, label: space.title }, { href: base, label: `Change request #${number}` }] : []}>
      {error ? <Problem error={error} /> : !cr ? (fetching ? <Loading what="the page" /> : <Problem error="This change request doesn't exist, or you don't have access to it." />) : (
        <div className="split">
          <aside className="side">
            <h1 className="side-title">Editing #{cr.number} {cr.subject}</h1>
            <p><Link className="button" href={base + pagePath}>Done editing</Link></p>
            <PageTree pages={cr.content.pages as TreePage[]} base={base + 'edit/'} current={pagePath} label="Pages to edit" />
          </aside>
          <div className="main">
            {cr.status !== 'OPEN' && cr.status !== 'DRAFT' ? <Problem error={`This change request is ${cr.status.toLowerCase()}: it can no longer be edited.`} />
              : !page ? (fetching ? <Loading what="the page" /> : <Problem title="Page not found" error="There is no page at this address in this change request." />)
                : page.type !== 'DOCUMENT' ? <p>Only document pages have content to edit.</p>
                  : <PageEditor key={page.id} spaceId={spaceId} crId={cr.id} page={page} files={files} />}
          </div>
        </div>
      )}
    </Shell>
  );
}
