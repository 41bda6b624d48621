import { readFile } from 'node:fs/promises';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { limits } from '../../../contract/limits.ts';

/** The reference page's own script and styles (public/docs/): see each file for why. */
const PAGE = new URL('../../../../public/docs/', import.meta.url);

const description = `
REST interface of the messaging gateway, with two faces over the same accounts and messages: \`/v2\` (the partner
interface, described below) and \`/v3\` (the original service's public API v3: bare camelCase bodies, the account's
client token as its API key; tags \`v3 …\`). On \`/v2\` every success is \`{data, meta: {timestamp}}\`; on both faces
every error is \`{error, description, data?}\` with a symbolic code. Every path is taken with or without a trailing slash.

**Authentication.** \`Authorization: Bearer <token>\`. Account routes take a client token; a sidecar key may
send, edit and delete messages and read channels and templates, and gets 403 \`FORBIDDEN\` elsewhere. Account
administration takes the partner key. A missing, malformed or revoked token gets 401 \`UNAUTHORIZED\`.
Another account's object is reported as not found (404), never as forbidden.

**Statuses.** 200 read/update/delete, 201 create, 400 \`VALIDATION_ERROR\` with \`data.fields\` naming each
field, 401, 403 (\`FORBIDDEN\`, \`TOO_MANY_ENTITIES\` beyond ${limits.maxEntitiesPerCall} items), 404 \`*_NOT_FOUND\`,
409 for an operation the current state forbids, 429 \`TOO_MANY_REQUESTS\`, 500 \`INTERNAL_ERROR\` carrying only
\`data.request_id\` (also sent as the \`x-request-id\` header).

**Rate limit.** ${limits.rateLimitRequests} requests per ${limits.rateLimitWindowSeconds}-second fixed window per token.
Every response carries \`RateLimit-Policy: "default";q=${limits.rateLimitRequests};w=${limits.rateLimitWindowSeconds}\`
and \`RateLimit: "default";r=<remaining>;t=<seconds to reset>\`; a 429 also carries \`Retry-After\`.
`.trim();

/** The OpenAPI document (from the route schemas) at /openapi.json, and a browsable reference at /docs. */
export const openApiPlugin = fp(
  async (app: FastifyInstance, opts: { publicUrl: string; version: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'Messaging gateway', version: opts.version, description },
        servers: [{ url: opts.publicUrl }],
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
        security: [{ bearer: [] }],
        tags: [
          { name: 'accounts', description: 'Partner administration: child accounts and their tokens.' },
          { name: 'oauth', description: 'OAuth clients of the partner, the consent page where an account owner allows one, and the token endpoint.' },
          { name: 'messages', description: 'Send, edit and delete messages; the send is accepted at once and its outcome arrives by webhook.' },
          { name: 'webhooks', description: 'Webhook subscriptions of an account.' },
          {
            name: 'channels',
            description:
              'Messenger accounts connected to the account. Status moves by a fixed table: `init` (reason `qr`, `sync`, ' +
              '`wait_for_password`, or none while a wapi URL must be followed), `active`, `disabled` (reason `qridle`, ' +
              '`foreignphone`, `unauthorized`, `blocked`, `rejected`, `not_enough_money`, `openelsewhere`, or none once deleted). ' +
              'Every change is an event: `channel.create`, `channel.status_update`, `channel.qr_update`, `channel.waba_tier_update`, `channel.delete`.',
          },
          {
            name: 'templates',
            description:
              'Business-API (wapi) message templates with their moderation status (APPROVED, PENDING, REJECTED, PAUSED, DISABLED) ' +
              'and components. Only APPROVED templates can be sent (else 409 `TEMPLATE_NOT_APPROVED`); changes arrive as ' +
              '`waba_template.status_update` `{template_id, status, timestamp}` (Unix seconds).',
          },
          {
            name: 'exports',
            description:
              'Messages of a period as a CSV file (RFC 4180, UTF-8 with BOM), one row per message in time order, columns: message_id, ' +
              'created_at, channel_id, transport, channel_name, chat_type, chat_id, contact_name, direction, status, reason, text, ' +
              'attachment_url, attachment_name, template_id, crm_user_id, quoted_message_id, edited_at, deleted_at (instants in ' +
              'ISO 8601 UTC). Deleted messages are included with deleted_at. Status: `pending` → `processing` → `done`; ' +
              '`webhook_failed` while the `messages_dump.status_update` delivery is answered with an error. The link is signed and works for 24 hours.',
          },
          {
            name: 'sandbox',
            description:
              'The simulated messenger network (TRANSPORT_MODE=sandbox, the default) acting as the other side: phones that scan ' +
              'QR codes, the platform that blocks, rejects, revokes and bills. Authenticated by the client token; absent in live mode.',
          },
          { name: 'health', description: 'Liveness and readiness probes.' },
          {
            name: 'embedding',
            description:
              'Iframe links for the chat and channel-connect frames, the origins allowed to embed them (frame-ancestors), and their sessions.',
          },
          { name: 'users', description: 'CRM users, shown as the authors of the messages they send. At most 100 per call.' },
          { name: 'contacts', description: 'The CRM\'s contacts, each owning chat handles, and the names of chats. At most 100 per call.' },
          { name: 'deals', description: 'The CRM\'s deals, with their contacts, responsible user and closed flag. At most 100 per call.' },
          { name: 'pipelines', description: 'The CRM\'s deal pipelines and their stages.' },
          { name: 'settings', description: 'Rights: roles of CRM users per channel (which chats they see, who gets new customers) and hidden phone numbers.' },
          { name: 'counters', description: 'Unanswered chats per CRM user.' },
          {
            name: 'bff',
            description:
              'The frames\' own API under /bff: a link is exchanged for a session token (held in memory, sent as a bearer token ' +
              'and in the socket.io handshake at /bff/socket.io), renewed while the frame is open. Rate limited per session.',
          },
          // The v3 face after every /v2 tag: the reference reads as one face, then the other.
          { name: 'v3 channels', description: 'v3: the channels of the account, as a bare array (connected through /v2 or the connect frame).' },
          { name: 'v3 messages', description: 'v3: send (201 `{messageId, chatId}`), edit and delete; refusals carry `status` and `requestId`.' },
          { name: 'v3 webhooks', description: 'v3: the one webhook address with its four switches; the bodies sent are keyed by type.' },
          { name: 'v3 users', description: 'v3: the CRM\'s employees, bare arrays of at most 100.' },
          { name: 'v3 contacts', description: 'v3: the CRM\'s contacts; lists are `{count, data}` by `offset`.' },
          { name: 'v3 deals', description: 'v3: the CRM\'s deals; lists are `{count, data}` by `offset`.' },
          { name: 'v3 pipelines', description: 'v3: sales funnels and their stages.' },
          { name: 'v3 iframe', description: 'v3: the chat window link.' },
          {
            name: 'v3 counters',
            description:
              'v3: the unanswered counter of a CRM user; also pushed over socket.io at `/ws-counters/` (emit `counterConnecting` ' +
              '`{type: "api_v3", apiKey, userId}`, hear `counterUpdate` `{counter, counterV2, type, lastMsgDateTime}`).',
          },
          { name: 'v3 templates', description: 'v3: WABA templates, read only.' },
        ],
      },
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      // BaseLayout: without Swagger UI's top bar, whose box for loading another document's address has no use here
      // (and no label, nor an alternative text for its logo).
      uiConfig: { docExpansion: 'list', deepLinking: true, layout: 'BaseLayout' },
      theme: {
        title: 'Messaging gateway API reference',
        css: [{ filename: 'theme.css', content: await readFile(new URL('theme.css', PAGE), 'utf8') }],
        js: [{ filename: 'full-operation-list.js', content: await readFile(new URL('full-operation-list.js', PAGE), 'utf8') }],
      },
    });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
