import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import {
  AuthorizeRefusal,
  checkAuthorizeRequest,
  issueCode,
  UnsafeAuthorizeRequest,
  type AuthorizeRequest,
} from '../../../core/auth/authorization-codes.ts';
import { signInOwner } from '../../../core/auth/owners.ts';
import type { AuthDeps } from '../../../core/auth/ports.ts';
import { htmlPage } from '../../html-page.ts';
import type { SignInLimiter } from '../../rate-limit/sign-in-limiter.ts';
import { CONSENT_PAGE_POLICY, consentPage } from './oauth-consent-page.ts';
import { acceptForms } from './oauth.ts';

const REQUEST_FIELDS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

type Fields = Record<string, unknown>;

/** Back to the client: its redirect URI with `params` added to what its query already holds, and its state untouched. */
function backToClient(reply: FastifyReply, redirectUri: string, state: string | undefined, params: Record<string, string>) {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (state !== undefined) url.searchParams.set('state', state);
  return reply.code(303).header('Cache-Control', 'no-store').redirect(url.toString(), 303);
}

function page(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).header('Cache-Control', 'no-store').header('Content-Security-Policy', CONSENT_PAGE_POLICY).type('text/html; charset=utf-8').send(html);
}

/**
 * `GET /v2/oauth/authorize`: the gateway's consent page, where an account owner signs in and lets a partner's OAuth
 * client act on the account; the answer comes back to the client's redirect URI as a single-use code with its state.
 */
export const oauthAuthorizePage: FastifyPluginAsync<AuthDeps & { failures: SignInLimiter }> = async (app, deps) => {
  acceptForms(app);

  /** Checks the request; a request that cannot go back safely or is refused is answered here. */
  const checked = async (fields: Fields, reply: FastifyReply): Promise<AuthorizeRequest | null> => {
    try {
      return await checkAuthorizeRequest(deps.auth, fields);
    } catch (err) {
      if (err instanceof UnsafeAuthorizeRequest) {
        await page(reply, 400, htmlPage('This sign-in link is not valid', `${err.message}. Go back to the application and start again.`));
        return null;
      }
      if (err instanceof AuthorizeRefusal) {
        await backToClient(reply, String(fields.redirect_uri), typeof fields.state === 'string' ? fields.state : undefined, { error: err.error, error_description: err.message });
        return null;
      }
      throw err;
    }
  };

  const hiddenOf = (fields: Fields) =>
    Object.fromEntries(REQUEST_FIELDS.flatMap((k) => (typeof fields[k] === 'string' ? [[k, fields[k] as string]] : [])));

  // Documented beside the token routes; the pages take no bearer token (the owner signs in on them).
  const doc = { tags: ['oauth'], security: [] };
  app.get('/oauth/authorize', {
    schema: { ...doc, summary: 'The consent page (HTML) where an account owner signs in and allows a partner\'s OAuth client' },
  }, async (request, reply) => {
    const fields = request.query as Fields;
    const req = await checked(fields, reply);
    if (!req) return reply;
    return page(reply, 200, consentPage({ clientName: req.client.name, scopes: req.scopes, hidden: hiddenOf(fields) }));
  });

  app.post('/oauth/authorize', {
    schema: { ...doc, summary: 'The owner\'s answer on the consent page: back to the client\'s redirect URI with a code or an error' },
  }, async (request, reply) => {
    const fields = (request.body ?? {}) as Fields;
    const req = await checked(fields, reply);
    if (!req) return reply;
    if (fields.decision !== 'allow') return backToClient(reply, req.redirectUri, req.state, { error: 'access_denied', error_description: 'The account owner refused' });
    const again = (status: number, error: string) => page(reply, status, consentPage({ clientName: req.client.name, scopes: req.scopes, hidden: hiddenOf(fields), error }));
    const { email, password } = fields;
    // Counted before the password is hashed (sign-in-limiter.ts): a burst is checked no further than the limit.
    const outcome = await deps.failures.attempt(request.ip, async () =>
      typeof email === 'string' && typeof password === 'string' ? signInOwner(deps.auth, email, password) : null,
    );
    if (outcome.kind === 'refused') {
      reply.header('Retry-After', String(outcome.retryAfterSeconds));
      return again(429, 'Too many failed sign-ins. Try again later.');
    }
    if (outcome.kind === 'failed') return again(401, 'Wrong email or password.');
    const code = await issueCode(deps, req, outcome.value);
    return backToClient(reply, req.redirectUri, req.state, { code });
  });
};
