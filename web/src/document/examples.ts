import { readFileSync } from 'node:fs';
import type { Block, Doc } from './types';

/** docExamples are the JSON examples of docs/document-format.md, each as a document (tests). */
export function docExamples(): { name: string; doc: Doc }[] {
  const page = readFileSync(new URL('../../../docs/document-format.md', import.meta.url), 'utf8');
  const out: { name: string; doc: Doc }[] = [];
  let heading = '';
  for (const [i, text] of page.split(/^```/m).entries()) {
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
    if (v?.object === 'document') out.push({ name: `${heading} #${i}`, doc: v });
    else if (v?.object === 'block') out.push({ name: `${heading} #${i}`, doc: { object: 'document', data: {}, nodes: [v as Block] } });
  }
  return out;
}
