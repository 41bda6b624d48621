import type { CreateChannelsLinkBody, CreateChatsLinkBody } from '../../contract/iframe-links.ts';
import type { TestGateway } from './harness.ts';

/** The `link` parameter of an iframe URL. */
export const linkOf = (url: string): string => {
  const link = new URL(url).searchParams.get('link');
  if (!link) throw new Error(`no link in ${url}`);
  return link;
};

/** Creates an iframe link through /v2 as the CRM does. */
export async function createLink(
  t: TestGateway,
  token: string,
  kind: 'chats' | 'channels',
  body: CreateChatsLinkBody | CreateChannelsLinkBody,
): Promise<{ url: string; link: string; expiresAt: string }> {
  const res = await t.call('POST', `/v2/iframe-links/${kind}`, { token, body });
  if (res.statusCode !== 201) throw new Error(`link not created: ${res.statusCode} ${res.body}`);
  const data = res.json().data as { url: string; expires_at: string };
  return { url: data.url, link: linkOf(data.url), expiresAt: data.expires_at };
}

/** Opens a frame: creates the link and exchanges it for a session token, as the widget does on load. */
export async function openFrame(
  t: TestGateway,
  token: string,
  kind: 'chats' | 'channels',
  body: CreateChatsLinkBody | CreateChannelsLinkBody,
): Promise<string> {
  const { link } = await createLink(t, token, kind, body);
  const res = await t.call('POST', '/bff/session', { body: { link } });
  if (res.statusCode !== 201) throw new Error(`session not opened: ${res.statusCode} ${res.body}`);
  return (res.json().data as { token: string }).token;
}
