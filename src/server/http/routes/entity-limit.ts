import type { FastifyRequest } from 'fastify';
import { assertEntityCount } from '../../core/entity-limit.ts';

/**
 * A preValidation hook: more than 100 items in the body's array answers 403 TOO_MANY_ENTITIES before the
 * schema looks at them (a schema `maxItems` would make it a 400).
 */
export const limitEntities =
  (field: string) =>
  async (request: FastifyRequest): Promise<void> => {
    const items = (request.body as Record<string, unknown> | null | undefined)?.[field];
    if (Array.isArray(items)) assertEntityCount(items.length);
  };
