import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getSchema } from '@tiptap/core';
import { Node as PMNode } from '@tiptap/pm/model';
import { allExtensions } from '../editor/extensions';
import { fromEditor, toEditor } from './prosemirror';
import type { Block, Doc } from './types';

// Every JSON example of docs/document-format.md, as a document: through the editor's schema and
// back, it must be identical.
const page = readFileSync(new URL('../../../docs/document-format.md', import.meta.url), 'utf8');
const examples: { name: string; doc: Doc }[] = [];
let heading = '';
for (const part of page.split(/^```/m).entries()) {
  const [i, text] = part;
  if (i % 2 === 0) {
    const h = [...text.matchAll(/^#+ (.*)$/gm)].pop();
    if (h) heading = h[1];
    continue;
  }
  if (!text.startsWith('json\n')) continue;
  let v: any;
  try {
    v = JSON.parse(text.slice(5));
  } catch {
    continue;
  }
  if (v?.object === 'document') examples.push({ name: `${heading} #${i}`, doc: v });
  else if (v?.object === 'block') examples.push({ name: `${heading} #${i}`, doc: { object: 'document', data: {}, nodes: [v as Block] } });
}

const schema = getSchema(allExtensions());

describe('document → editor → document', () => {
  it('finds the examples', () => expect(examples.length).toBeGreaterThan(30));
  for (const ex of examples) {
    it(ex.name, () => {
      const pm = PMNode.fromJSON(schema, toEditor(ex.doc));
      pm.check();
      expect(fromEditor(pm.toJSON())).toEqual(ex.doc);
    });
  }
});
