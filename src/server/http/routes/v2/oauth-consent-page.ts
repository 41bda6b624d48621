import type { Scope } from '../../../core/auth/ports.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const scopeLabels: Record<Scope, string> = {
  transport: 'Connect and manage your channels',
  crm: 'Read and send messages; manage users, contacts, deals, settings and chat windows',
};

/** The page's own policy: nothing runs, nothing loads; only its inline style applies. */
export const CONSENT_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

const STYLE =
  'body{font:16px system-ui,sans-serif;margin:10vh auto;max-width:28rem;padding:0 1rem;color:#1f2937}' +
  'label{display:block;margin:.75rem 0 .25rem}input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}' +
  'li{margin:.5rem 0}.error{color:#b91c1c}.actions{display:flex;gap:.75rem;margin-top:1.25rem}' +
  'button{padding:.5rem 1rem;font:inherit;cursor:pointer}';

/**
 * The authorization page: the client's name, what it asks for, and the account owner's sign-in. The request's own
 * parameters travel in hidden fields and are checked again when the form comes back.
 */
export function consentPage(input: { clientName: string; scopes: readonly Scope[]; hidden: Record<string, string>; error?: string }): string {
  const hidden = Object.entries(input.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escaped(name)}" value="${escaped(value)}">`)
    .join('');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>Allow access</title><style>${STYLE}</style></head><body>` +
    `<h1>Allow ${escaped(input.clientName)} access?</h1>` +
    `<p>${escaped(input.clientName)} asks to act on your account:</p>` +
    `<ul>${input.scopes.map((s) => `<li>${escaped(scopeLabels[s])}</li>`).join('')}</ul>` +
    (input.error ? `<p class="error" role="alert">${escaped(input.error)}</p>` : '') +
    `<form method="post" action="">${hidden}` +
    `<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>` +
    `<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>` +
    `<div class="actions"><button type="submit" name="decision" value="allow">Allow</button>` +
    `<button type="submit" name="decision" value="deny" formnovalidate>Deny</button></div></form></body></html>`
  );
}
