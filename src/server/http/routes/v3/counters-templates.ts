import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Template } from '../../../../contract/templates.ts';
import { V3Template, V3TemplatesQuery, V3Unanswered } from '../../../../contract/v3/crm.ts';
import { v3Errors } from '../../../../contract/v3/errors.ts';
import { unansweredSummary } from '../../../core/rights/counters.ts';
import type { Clock, Store } from '../../../core/ports.ts';
import { listTemplates } from '../../../core/templates/templates.ts';
import { v3CallerOf } from './caller.ts';

/** `@template: <guid> { [[headerVar1]]; [[bodyVar1]] }`: a placeholder per variable of the header, then of the body. */
export function templateCode(t: Template): string {
  const vars = (type: string, prefix: string) =>
    t.components.filter((c) => c.type === type).flatMap((c) => [...(c.text ?? '').matchAll(/\{\{\s*\d+\s*\}\}/g)].map((_, i) => `[[${prefix}${i + 1}]]`));
  const placeholders = [...vars('HEADER', 'headerVar'), ...vars('BODY', 'bodyVar')];
  return `@template: ${t.id} { ${placeholders.join('; ')} }`;
}

export function toV3Template(t: Template) {
  return {
    templateGuid: t.id,
    title: t.name,
    name: t.name,
    channels: [t.channel_id],
    category: t.category,
    language: t.language,
    status: t.status.toLowerCase(),
    rejected_reason: '',
    namespace: '',
    waba: { wabaId: '', wabaName: '' },
    components: t.components,
    templateCode: templateCode(t),
  };
}

/** The unanswered counter and the WABA templates through the v3 face. */
export const v3CounterTemplateRoutes: FastifyPluginAsyncTypebox<{ store: Store; clock: Clock }> = async (app, deps) => {
  app.get(
    '/unanswered/:userId',
    {
      schema: {
        tags: ['v3 counters'],
        summary: "A user's unanswered counter",
        description:
          'How many chats the user can see (by their roles; all while the account sets none) wait for an answer, `type` red (one is the ' +
          "user's customer), grey (only others') or null (none waits), and the time of the latest of their messages.",
        params: Type.Object({ userId: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: V3Unanswered, ...v3Errors },
      },
    },
    async (request) => {
      const summary = await unansweredSummary(deps, v3CallerOf(request).accountId, request.params.userId);
      return {
        counterV2: summary.counter,
        type: summary.counter === 0 ? null : summary.type,
        lastMsgDateTime: summary.lastMessageAt?.toISOString() ?? null,
      };
    },
  );

  app.get(
    '/templates/whatsapp',
    {
      config: { access: 'sidecar' },
      schema: {
        tags: ['v3 templates'],
        summary: 'List WABA templates',
        description: 'A bare array, `limit` (default 100) from `offset`; one item per channel a template is bound to.',
        querystring: V3TemplatesQuery,
        response: { 200: Type.Array(V3Template), ...v3Errors },
      },
    },
    async (request) => {
      const { limit = 100, offset = 0 } = request.query;
      const all = await listTemplates({ ...deps, platform: null }, v3CallerOf(request).accountId);
      return all.slice(offset, offset + limit).map(toV3Template);
    },
  );
};
