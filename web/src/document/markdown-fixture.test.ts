import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { docExamples } from './examples';
import { toMarkdown } from './markdown';

// The markdown the editor saves for each example of docs/document-format.md it can write, kept in
// testdata/markdown-roundtrip.json: the Go test web.TestAppMarkdownReadsBackAsTheDocument reads
// each back with the server's converter and requires the same document. UPDATE=1 rewrites it.
const fixture = new URL('./testdata/markdown-roundtrip.json', import.meta.url);
const files = new Map([['file-cat', 'cat.png'], ['file-report', 'report.pdf']]);

it('the round-trip fixture is current', () => {
  const cases = docExamples().flatMap(({ name, doc }) => {
    const { markdown, lost } = toMarkdown(doc, files);
    return lost.length ? [] : [{ name, markdown, doc }];
  });
  const text = JSON.stringify(cases, null, 1) + '\n';
  if (process.env.UPDATE) writeFileSync(fixture, text);
  expect(readFileSync(fixture, 'utf8')).toBe(text);
});
