/** A page of the gateway's (what an owner is shown on the way back from a platform), as a browser reads it. */
export interface GatewayPage {
  status: number;
  page: string;
  /** Its links in order, label and address unescaped. */
  links: { label: string; url: string }[];
}

const unescaped = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The links of a page's text, in order. */
export const linksOf = (page: string): GatewayPage['links'] =>
  [...page.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => ({ url: unescaped(m[1]!), label: unescaped(m[2]!) }));

/** The page at an address: its status, text and links. */
export async function openPage(url: string): Promise<GatewayPage> {
  const res = await fetch(url);
  const page = await res.text();
  return { status: res.status, page, links: linksOf(page) };
}
