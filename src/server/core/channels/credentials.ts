import { Value } from 'typebox/value';
import { frameCredentialsSchemas } from '../../../contract/channel-api.ts';
import { credentialRefusals } from '../../../contract/credential-fields.ts';
import type { Transport } from '../../../contract/channels.ts';
import type { FieldError } from '../../../contract/errors.ts';
import { validationError } from '../errors.ts';

interface SchemaIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** One entry per offending field, named as the request names it (`credentials.telegram_token`). */
function credentialFieldErrors(issues: SchemaIssue[]): FieldError[] {
  const fields: FieldError[] = [];
  const at = (path: string) => ['credentials', ...path.split('/').filter(Boolean)].join('.');
  for (const issue of issues) {
    if (issue.keyword === 'required') {
      for (const name of issue.params.requiredProperties as string[]) fields.push({ field: at(`${issue.instancePath}/${name}`), message: credentialRefusals.required });
    } else if (issue.keyword === 'additionalProperties') {
      for (const name of issue.params.additionalProperties as string[]) fields.push({ field: at(`${issue.instancePath}/${name}`), message: credentialRefusals.notAllowed });
    } else if (issue.keyword !== 'boolean') {
      fields.push({ field: at(issue.instancePath), message: issue.message });
    }
  }
  return fields;
}

/**
 * Checks credentials against the transport's schema. Creation gets this from the route's schema; reinit
 * learns the transport only from the stored channel, so it asks here.
 */
export function assertCredentials(transport: Transport, credentials: Record<string, unknown>): void {
  // An Instagram channel connected by Facebook Login (created as `instagram`) is reconnected by logging in again.
  if (transport === 'instAPI' && Object.keys(credentials).length === 0) return;
  const schema = frameCredentialsSchemas[transport];
  if (Value.Check(schema, credentials)) return;
  throw validationError(credentialFieldErrors([...Value.Errors(schema, credentials)] as SchemaIssue[]));
}
