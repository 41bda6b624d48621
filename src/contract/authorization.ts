/**
 * `Authorization: Bearer <token>`, as the API and the frames' API take it. The scheme name is matched in any
 * case (RFC 9110 §11.1: `bearer` and `BEARER` name the same scheme); the token is printable ASCII, as issued.
 */
const BEARER = /^bearer +([\x21-\x7e]{1,512})$/i;

/** The token of a bearer `Authorization` header, or null for any other or none. */
export function bearerToken(header: string | undefined): string | null {
  return BEARER.exec(header ?? '')?.[1] ?? null;
}
