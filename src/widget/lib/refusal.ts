import type { FieldError } from '../../contract/errors.ts';
import { BffError } from './bff-client.ts';

/** A failed /bff call as a screen says it: the gateway's description, and what it said per input. */
export interface Refusal {
  code: string | null;
  message: string;
  /** Messages by input name (`credentials.telegram_token` is the `telegram_token` input). */
  fields: Record<string, string>;
}

const inputName = (field: string) => field.replace(/^body\./, '').replace(/^credentials\./, '');

/**
 * The gateway's refusal in plain words. Field messages for inputs on the form go next to them (`labels` names
 * those inputs); any others are added to the message, so nothing the gateway said is lost.
 */
export function refusalOf(err: unknown, labels: Readonly<Record<string, string>> = {}): Refusal {
  if (!(err instanceof BffError)) return { code: null, message: 'The gateway could not be reached. Check the connection and try again.', fields: {} };
  const fields: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const f of (err.data?.fields ?? []) as FieldError[]) {
    const name = inputName(f.field);
    if (labels[name] !== undefined) fields[name] = fields[name] ? `${fields[name]}; ${f.message}` : `${labels[name]} ${f.message}.`;
    else elsewhere.push(`${name} ${f.message}`);
  }
  const message = elsewhere.length > 0 ? `${err.message}: ${elsewhere.join('; ')}.` : err.message;
  return { code: err.code, message, fields };
}
