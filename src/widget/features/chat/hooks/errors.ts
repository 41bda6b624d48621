import type { FieldError } from '../../../../contract/errors.ts';
import { BffError } from '../../../lib/bff-client.ts';

/**
 * What to tell the agent about a failed call: the gateway's own description with the fields it names (a
 * validation error says which field and why), or that the network failed.
 */
export function describeError(err: unknown): string {
  if (!(err instanceof BffError)) return 'The gateway could not be reached. Check the connection and try again.';
  const fields = (err.data?.fields ?? []) as FieldError[];
  const why = fields.map((f) => `${f.field.replace(/^body\./, '')} ${f.message}`).join('; ');
  return why ? `${err.message}: ${why}.` : err.message;
}
