import { describe, expect, it } from 'vitest';
import { downloadLinks } from './download-link.ts';

const secret = 'k'.repeat(40);
const id = '0b6f1d5e-7a43-4c8e-9a55-0d2f0c6b1a11';
const at = new Date('2030-01-02T00:00:00Z');

function parts(url: string) {
  const u = new URL(url);
  return { path: u.pathname, expires: u.searchParams.get('expires')!, signature: u.searchParams.get('signature')! };
}

describe('export download links', () => {
  const links = downloadLinks(secret, 'https://gw.example.org');

  it('builds a link under the public URL that carries its expiry in unix seconds', () => {
    const url = links.url(id, at);
    expect(url.startsWith(`https://gw.example.org/downloads/exports/${id}.csv?`)).toBe(true);
    expect(parts(url).expires).toBe(String(at.getTime() / 1000));
    expect(links.url(id, at)).toBe(url);
  });

  it('verifies its own signature only for the same export and expiry', () => {
    const { expires, signature } = parts(links.url(id, at));
    expect(links.verify(id, expires, signature)).toBe(true);
    expect(links.verify(id, String(Number(expires) + 86_400), signature)).toBe(false);
    expect(links.verify('1b6f1d5e-7a43-4c8e-9a55-0d2f0c6b1a11', expires, signature)).toBe(false);
    expect(links.verify(id, expires, `${signature.slice(0, -2)}AA`)).toBe(false);
    expect(links.verify(id, expires, '')).toBe(false);
    expect(links.verify(id, 'soon', signature)).toBe(false);
  });

  it('does not accept a link signed under another secret key', () => {
    const { expires, signature } = parts(downloadLinks('x'.repeat(40), 'https://gw.example.org').url(id, at));
    expect(links.verify(id, expires, signature)).toBe(false);
  });
});
