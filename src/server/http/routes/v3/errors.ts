import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../../../contract/errors.ts';
import { AppError } from '../../../core/errors.ts';
import { fieldErrors } from '../../plugins/errors.ts';

/**
 * A refusal in the v3 face's own words: its codes (`INVALID_MESSAGE_DATA`, `WRONG_TRANSPORT`, `uriNotValid`, ...)
 * are not the v2 face's, so v3 routes throw this where they decide the answer themselves.
 */
export class V3Error extends Error {
  readonly status: number;
  readonly code: string;
  readonly data: unknown;

  constructor(status: number, code: string, description?: string, data?: unknown) {
    super(description ?? '');
    this.name = 'V3Error';
    this.status = status;
    this.code = code;
    this.data = data;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The v3 code a schema failure of this route answers with (INVALID_MESSAGE_DATA, INVALID_CONTACTS_DATA, ...). */
    v3Invalid?: string;
    /** The route answers refusals with `status` and `requestId` besides the code (the message routes). */
    v3Detailed?: boolean;
  }
}

/** A channel that is not active, as v3 refuses a message through it. */
export function channelStateError(status: string, reason: string | null): V3Error {
  if (reason === 'not_enough_money') return new V3Error(400, 'CHANNEL_NO_MONEY', 'Channel is not paid');
  if (reason === 'blocked' || reason === 'rejected') return new V3Error(400, 'CHANNEL_WAPI_REJECTED', 'Channel is blocked by the platform');
  if (status === 'disabled' && reason === null) return new V3Error(400, 'CHANNEL_BLOCKED', 'Channel is switched off');
  return new V3Error(400, 'MESSAGE_CHANNEL_UNAVAILABLE', 'Channel is not available now: it is not active', { state: reason ?? status });
}

/** v2 codes that the v3 documentation spells differently, all answered 400 there. */
const renamed: Partial<Record<ErrorCode, [number, string]>> = {
  CHANNEL_NOT_FOUND: [400, 'CHANNEL_NOT_FOUND'],
  MESSAGE_NOT_FOUND: [400, 'MESSAGES_NOT_FOUND'],
  CHAT_NOT_FOUND: [400, 'CHAT_NO_ACCESS'],
  TEMPLATE_NOT_FOUND: [400, 'INVALID_MESSAGE_DATA'],
  TEMPLATE_NOT_APPROVED: [400, 'TEMPLATE_REJECTED'],
};

interface AjvIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

/**
 * A schema failure as v3 reports it: `data.fields` lists the names at fault; a bare-array body (users, contacts,
 * deals) says which items, `data: [{index, fields}]`.
 */
export function v3InvalidData(issues: AjvIssue[], context: string | undefined): unknown {
  const fields = fieldErrors(issues, context).map((f) => f.field);
  const byIndex = new Map<number, string[]>();
  for (const field of fields) {
    const m = /^(\d+)(?:\.(.+))?$/.exec(field);
    if (!m) return { fields: [...new Set(fields)] };
    const list = byIndex.get(Number(m[1])) ?? [];
    list.push(m[2] ?? 'item');
    byIndex.set(Number(m[1]), list);
  }
  return [...byIndex].map(([index, f]) => ({ index, fields: [...new Set(f)] }));
}

function send(request: FastifyRequest, reply: FastifyReply, status: number, code: string, description: string | undefined, data?: unknown) {
  reply.header('cache-control', 'no-store');
  // The live service's answer to a sidecar key off its routes is the code alone.
  if (status === 403 && code === 'FORBIDDEN') return reply.code(403).type('application/json; charset=utf-8').send({ error: 'FORBIDDEN' });
  const detailed = request.routeOptions.config?.v3Detailed === true;
  const body = {
    ...(detailed ? { status } : {}),
    ...(detailed ? { requestId: request.id } : {}),
    error: code,
    ...(description ? { description } : {}),
    ...(data !== undefined ? { data } : {}),
  };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * The v3 face's error handler: its own refusals as thrown, the core's in v3 spelling, schema failures under the
 * route's invalid-data code. What it does not know goes to the gateway's handler (`fallback`).
 */
export function v3ErrorHandler(fallback: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof V3Error) return send(request, reply, error.status, error.code, error.message || undefined, error.data);
    if (error.validation) {
      const code = request.routeOptions.config?.v3Invalid ?? 'VALIDATION_ERROR';
      return send(request, reply, 400, code, 'Request data is invalid', v3InvalidData(error.validation as AjvIssue[], error.validationContext));
    }
    if (error instanceof AppError) {
      if (error.code === 'CHANNEL_WRONG_STATUS') {
        const state = channelStateError(String(error.data?.status), (error.data?.reason as string | null | undefined) ?? null);
        return send(request, reply, state.status, state.code, state.message, state.data);
      }
      const mapped = renamed[error.code];
      if (mapped) return send(request, reply, mapped[0], mapped[1], error.message, error.data);
      if (error.code === 'VALIDATION_ERROR' && request.routeOptions.config?.v3Invalid) {
        return send(request, reply, 400, request.routeOptions.config.v3Invalid, error.message, error.data);
      }
      if (error.status < 500) return send(request, reply, error.status, error.code, error.message, error.data);
    }
    return fallback(error, request, reply);
  };
}
