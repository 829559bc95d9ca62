import { Extension, Mark, Node, mergeAttributes } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';

// The editor's schema: Bindery's blocks (docs/document-format.md) as TipTap nodes and marks.
// Attributes that only carry the document's identity (keys, data the editor has no tool for)
// are not rendered; they travel with the node so that the document comes back identical.

const hidden = (def: unknown = null) => ({ default: def, rendered: false, keepOnSplit: false });

/** Keys: every block keeps the key it came with (new blocks get none until the server reads them). */
const Keys = Extension.create({
  name: 'bindery-keys',
  addGlobalAttributes() {
    return [{
      types: ['paragraph', 'heading', 'bulletList', 'orderedList', 'listItem', 'taskList', 'taskItem', 'blockquote', 'horizontalRule', 'codeBlock', 'table', 'tableRow', 'hint', 'images'],
      attributes: { key: hidden() },
    }];
  },
});

const Hint = Node.create({
  name: 'hint',
  group: 'block',
  content: 'block+',
  defining: true,
  addAttributes() {
    return {
      style: { default: 'info', parseHTML: (el) => el.getAttribute('data-style') ?? 'info', renderHTML: (a) => ({ 'data-style': a.style, class: `hint hint-${a.style}` }) },
    };
  },
  parseHTML: () => [{ tag: 'aside[data-hint]' }],
  renderHTML: ({ HTMLAttributes }) => ['aside', mergeAttributes({ 'data-hint': '', role: 'note' }, HTMLAttributes), 0],
});

/** Math: a display formula in TeX, edited with the toolbar's Formula tool. */
const MathBlock = Node.create({
  name: 'math',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes: () => ({ key: hidden(), formula: hidden(''), data: hidden({}) }),
  parseHTML: () => [{ tag: 'pre[data-math]' }],
  renderHTML: ({ node }) => ['pre', { 'data-math': '', class: 'math', 'aria-label': 'Formula' }, ['code', {}, String(node.attrs.formula || 'Empty formula')]],
});

/** Tabs: titled panels; each tab holds blocks. */
const Tabs = Node.create({
  name: 'tabs',
  group: 'block',
  content: 'tabsItem+',
  defining: true,
  addAttributes: () => ({ key: hidden() }),
  parseHTML: () => [{ tag: 'div[data-tabs]' }],
  renderHTML: () => ['div', { 'data-tabs': '', class: 'tabs' }, 0],
});

const TabsItem = Node.create({
  name: 'tabsItem',
  content: 'block+',
  defining: true,
  addAttributes: () => ({
    key: hidden(),
    title: { default: '', parseHTML: (el) => el.getAttribute('data-title') ?? '', renderHTML: (a) => ({ 'data-title': a.title }) },
  }),
  parseHTML: () => [{ tag: 'section[data-tab]' }],
  renderHTML: ({ HTMLAttributes }) => ['section', mergeAttributes({ 'data-tab': '', class: 'tab' }, HTMLAttributes), 0],
});

/** Expandable: a title (formatted text) that opens a body of blocks. */
const Expandable = Node.create({
  name: 'expandable',
  group: 'block',
  content: 'expandableTitle expandableBody',
  defining: true,
  addAttributes: () => ({ key: hidden() }),
  parseHTML: () => [{ tag: 'div[data-expandable]' }],
  renderHTML: () => ['div', { 'data-expandable': '', class: 'expandable' }, 0],
});

const ExpandableTitle = Node.create({
  name: 'expandableTitle',
  content: 'inline*',
  defining: true,
  addAttributes: () => ({ key: hidden(), paragraphKey: hidden(), paragraphData: hidden({}) }),
  parseHTML: () => [{ tag: 'div[data-expandable-title]' }],
  renderHTML: () => ['div', { 'data-expandable-title': '', class: 'expandable-title' }, 0],
});

const ExpandableBody = Node.create({
  name: 'expandableBody',
  content: 'block+',
  defining: true,
  addAttributes: () => ({ key: hidden() }),
  parseHTML: () => [{ tag: 'div[data-expandable-body]' }],
  renderHTML: () => ['div', { 'data-expandable-body': '', class: 'expandable-body' }, 0],
});

/** Images: a row of pictures with their captions, as one block. */
const Images = Node.create({
  name: 'images',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes: () => ({ images: hidden([]) }),
  parseHTML: () => [{ tag: 'div[data-images]' }],
  renderHTML: ({ node }) => {
    const imgs = (node.attrs.images as any[]).map((img) => {
      const ref = img.data?.ref ?? {};
      const src = ref.kind === 'url' ? ref.url : undefined;
      return src ? ['img', { src, alt: img.data?.alt ?? '' }] : ['span', { class: 'opaque' }, `image${img.data?.alt ? ': ' + img.data.alt : ''}`];
    });
    return ['div', { 'data-images': '', class: 'images' }, ...imgs];
  },
});

function describe(node: any): string {
  const text = JSON.stringify(node).match(/"text":"([^"]{1,60})/)?.[1];
  return `${node.type} block${text ? `: ${text}…` : ''} (kept as it is)`;
}

/** OpaqueBlock holds a block the editor has no tool for yet: it is kept, moved or deleted whole. */
const OpaqueBlock = Node.create({
  name: 'opaqueBlock',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes: () => ({ node: hidden() }),
  parseHTML: () => [{ tag: 'div[data-opaque]' }],
  renderHTML: ({ node }) => ['div', { 'data-opaque': '', class: 'opaque', contenteditable: 'false' }, describe(node.attrs.node)],
});

const OpaqueInline = Node.create({
  name: 'opaqueInline',
  group: 'inline',
  inline: true,
  atom: true,
  addAttributes: () => ({ node: hidden() }),
  parseHTML: () => [{ tag: 'span[data-opaque]' }],
  renderHTML: ({ node }) => ['span', { 'data-opaque': '', class: 'opaque' }, String(node.attrs.node?.data?.formula ?? node.attrs.node?.type ?? '')],
});

const simpleMark = (name: string, tag: string) => Mark.create({
  name,
  parseHTML: () => [{ tag }],
  renderHTML: ({ HTMLAttributes }) => [tag, HTMLAttributes, 0],
});

/** OtherMark keeps a mark the editor has no tool for (colour) on its text. */
const OtherMark = Mark.create({
  name: 'otherMark',
  addAttributes: () => ({ mark: hidden() }),
  parseHTML: () => [{ tag: 'mark[data-other]' }],
  renderHTML: () => ['mark', { 'data-other': '' }, 0],
});

export function extensions() {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3] },
      underline: false,
      trailingNode: false,
      link: { openOnClick: false, autolink: true, defaultProtocol: 'https' },
    }),
    Keys,
    TaskList,
    TaskItem.configure({ nested: true }),
    Table.extend({
      addAttributes() {
        return { ...this.parent?.(), hideHeader: hidden(false), extra: hidden() };
      },
    }).configure({ resizable: false }),
    TableRow.extend({ addAttributes() { return { ...this.parent?.(), orderIndex: hidden() }; } }),
    TableHeader.extend({ addAttributes() { return { ...this.parent?.(), column: hidden(), align: hidden('left') }; } }),
    TableCell.extend({ addAttributes() { return { ...this.parent?.(), fragment: hidden(), fragmentKey: hidden() }; } }),
    Hint,
    MathBlock,
    Tabs,
    TabsItem,
    Expandable,
    ExpandableTitle,
    ExpandableBody,
    Images,
    OpaqueBlock,
    OpaqueInline,
    simpleMark('keyboard', 'kbd'),
    simpleMark('superscript', 'sup'),
    simpleMark('subscript', 'sub'),
    OtherMark,
  ].flat();
}

/** Attributes the document model needs on StarterKit's own nodes. */
export const ModelAttributes = Extension.create({
  name: 'bindery-model',
  addGlobalAttributes() {
    return [
      { types: ['heading'], attributes: { anchor: hidden() } },
      { types: ['paragraph', 'heading'], attributes: { data: hidden({}) } },
      { types: ['orderedList'], attributes: { explicitStart: hidden(false) } },
      { types: ['codeBlock'], attributes: { data: hidden({}), lineKeys: hidden([]) } },
      { types: ['link'], attributes: { ref: hidden(), key: hidden() } },
    ];
  },
});

export function allExtensions() {
  return [...extensions(), ModelAttributes];
}
