import { describe, expect, it } from 'vitest';
import { getSchema } from '@tiptap/core';
import { Node as PMNode } from '@tiptap/pm/model';
import { allExtensions } from '../editor/extensions';
import { fromEditor, toEditor } from './prosemirror';
import { docExamples } from './examples';

// Every JSON example of docs/document-format.md, through the editor's schema and back, must be
// identical.
const examples = docExamples();

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
