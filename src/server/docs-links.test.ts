import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { Lexer, type Token } from 'marked';
import { describe, expect, it } from 'vitest';

/**
 * The front page and the pages under docs/ link to each other and to files of the repository: a page moved or
 * renamed must not leave a link behind that leads nowhere. Links to other sites are not followed here.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Every link and picture of a page, as markdown renders them (code blocks and code spans hold none). */
function targetsOf(markdown: string): string[] {
  const targets: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if ((token.type === 'link' || token.type === 'image') && 'href' in token) targets.push(String(token.href));
      if ('tokens' in token && Array.isArray(token.tokens)) walk(token.tokens);
      if (token.type === 'list') for (const item of token.items) walk(item.tokens);
      if (token.type === 'table') for (const cell of [...token.header, ...token.rows.flat()]) walk(cell.tokens);
    }
  };
  walk(Lexer.lex(markdown));
  return targets;
}

/** The anchors GitHub gives a page's headings. */
function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  return new Set(Lexer.lex(markdown).flatMap((token) => (token.type === 'heading' ? [slugger.slug(String(token.text).replace(/`/g, ''))] : [])));
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe('links of README.md and docs/', () => {
  it('reads the front page and the docs index', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/README.md');
  });

  for (const page of pages) {
    it(`${page}: every relative link leads to a file of the repository (and a heading of it, when it names one)`, () => {
      const markdown = readFileSync(join(root, page), 'utf8');
      const broken: string[] = [];
      for (const target of targetsOf(markdown)) {
        if (isExternal(target)) continue;
        const [path = '', anchor] = target.split('#');
        const file = path === '' ? join(root, page) : resolve(dirname(join(root, page)), decodeURIComponent(path));
        if (!file.startsWith(root + '/') && file !== root) broken.push(`${target} (outside the repository)`);
        else if (!existsSync(file)) broken.push(`${target} (no ${relative(root, file)})`);
        else if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${target} (no heading #${anchor})`);
      }
      expect(broken).toEqual([]);
    });
  }

  it('finds a broken link when there is one', () => {
    expect(targetsOf('See [gone](docs/gone.md), `[code](x.md)` and ![a picture](docs/images/x.png).')).toEqual(['docs/gone.md', 'docs/images/x.png']);
    expect(anchorsOf('# Changing `PUBLIC_URL`\n## Pacing')).toEqual(new Set(['changing-public_url', 'pacing']));
  });
});
