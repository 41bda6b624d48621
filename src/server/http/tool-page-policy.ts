/**
 * The Content-Security-Policy of the gateway's own tool pages (the demo CRM, the sandbox phone): scripts, styles and
 * calls only from the gateway's origin, no inline script, nothing to embed but the frames the page names. An injected
 * tag could neither run nor send anything elsewhere. (Framing them is refused by the security headers.)
 */
export const toolPagePolicy = (frameOrigins: readonly string[] = []): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    `frame-src ${["'self'", ...frameOrigins].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
