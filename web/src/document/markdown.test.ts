import { describe, expect, it } from 'vitest';
import { toMarkdown } from './markdown';
import type { Block } from './types';

const text = (t: string, marks: string[] = []) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: t, marks: marks.map((m) => ({ object: 'mark' as const, type: m, data: {} })) }] });
const p = (...nodes: any[]): Block => ({ object: 'block', type: 'paragraph', key: '1', data: {}, nodes });
const b = (type: string, data: any, nodes: any[]): Block => ({ object: 'block', type, key: '1', data, nodes });

describe('document → markdown', () => {
  it('writes marks without breaking emphasis at spaces or between leaves', () => {
    const leaves = { object: 'text', leaves: [
      { object: 'leaf', text: 'a ', marks: [{ object: 'mark', type: 'bold', data: {} }] },
      { object: 'leaf', text: 'b', marks: [{ object: 'mark', type: 'bold', data: {} }, { object: 'mark', type: 'italic', data: {} }] },
      { object: 'leaf', text: ' c', marks: [] },
      { object: 'leaf', text: 'x`y', marks: [{ object: 'mark', type: 'code', data: {} }] },
    ] };
    expect(toMarkdown({ nodes: [p(leaves)] }).markdown).toBe('**a *b*** c``x`y``\n');
  });
  it('escapes what markdown would read as syntax', () => {
    expect(toMarkdown({ nodes: [p(text('1. *not* a list [x] <b>'))] }).markdown).toBe('1\\. \\*not\\* a list \\[x\\] \\<b\\>\n');
  });
  it('writes headings, lists, tasks, quotes, code, hints and tables', () => {
    const item = (t: string, data: any = {}) => b('list-item', data, [p(text(t))]);
    const doc = { nodes: [
      b('heading-2', { id: 'install' }, [text('Install')]),
      b('list-ordered', { start: 3 }, [item('three'), item('four')]),
      b('list-tasks', {}, [item('done', { checked: true }), item('todo', { checked: false })]),
      b('blockquote', {}, [p(text('quoted'))]),
      b('code', { syntax: 'go', title: 'main.go' }, [b('code-line', {}, [text('x := 1')])]),
      b('hint', { style: 'warning' }, [p(text('careful'))]),
      { object: 'block', type: 'table', key: '1', isVoid: true, data: { view: { type: 'grid', columns: ['c'], hideHeader: false }, definition: { c: { id: 'c', title: 'Name', type: 'text', textAlignment: 'right' } }, records: { r: { orderIndex: 'a0', values: { c: 'f' } } } },
        fragments: [{ object: 'fragment', key: 'f', fragment: 'f', nodes: [p(text('a|b'))] }] },
    ] as Block[] };
    const out = toMarkdown(doc);
    expect(out.lost).toEqual([]);
    expect(out.markdown).toBe([
      '## Install {#install}', '',
      '3. three\n4. four', '',
      '- [x] done\n- [ ] todo', '',
      '> quoted', '',
      '{% code title="main.go" %}\n```go\nx := 1\n```\n{% endcode %}', '',
      '{% hint style="warning" %}\ncareful\n{% endhint %}', '',
      '| Name |\n|---:|\n| a\\\\|b |',
    ].join('\n') + '\n');
  });
  it('lists what it cannot write', () => {
    const out = toMarkdown({ nodes: [b('stepper', {}, [])] });
    expect(out.lost).toEqual(['stepper block']);
  });
});
