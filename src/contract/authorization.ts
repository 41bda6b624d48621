/**
 * `Authorization: Bearer <token>`, as the API and the frames' API take it. The scheme name is matched in any
 * case (RFC 9110 §11.1: `bearer` and `BEARER` name the same scheme); the token is printable ASCII, as issued.
 */
const BEARER = /^bearer +([\x21-\x7e]{1,512})$/i;

/** The token of a bearer `Authorization` header, or null for any other or none. */
export function bearerToken(header: string | undefined): string | null {
  return BEARER.exec(header ?? '')?.[1] ?? null;
}

const BASIC = /^basic +([A-Za-z0-9+/]{1,1024}={0,2})$/i;

/** The login and secret of a Basic `Authorization` header (RFC 7617), or null for any other or none. */
export function basicCredentials(header: string | undefined): { login: string; secret: string } | null {
  const encoded = BASIC.exec(header ?? '')?.[1];
  if (!encoded) return null;
  let text: string;
  try {
    // atob gives one character per byte: the bytes are read back as UTF-8.
    text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
  const colon = text.indexOf(':');
  return colon > 0 ? { login: text.slice(0, colon), secret: text.slice(colon + 1) } : null;
}
