import { expect, it } from 'vitest';
import { pageOfLink, type TreePage } from './PageTree';

const page = (path: string): TreePage => ({ id: path, type: 'DOCUMENT', title: path, path });
const byPath = new Map(['getting-started', 'advanced/configuration', 'advanced'].map((p) => [p, page(p)]));

it('finds the page a relative markdown link names', () => {
  expect(pageOfLink('../getting-started.md', 'advanced/configuration', byPath)?.path).toBe('getting-started');
  expect(pageOfLink('configuration.md#tuning', 'advanced/configuration', byPath)?.path).toBe('advanced/configuration');
  expect(pageOfLink('advanced/README.md', 'getting-started', byPath)?.path).toBe('advanced');
  expect(pageOfLink('https://example.com/x.md', 'getting-started', byPath)).toBeUndefined();
  expect(pageOfLink('missing.md', 'getting-started', byPath)).toBeUndefined();
  expect(pageOfLink('#anchor', 'getting-started', byPath)).toBeUndefined();
});
