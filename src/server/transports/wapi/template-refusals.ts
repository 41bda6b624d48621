import { AppError, validationError } from '../../core/errors.ts';
import { GraphApiError, GraphApiUnreachable } from '../meta/graph-api.ts';
import { isRateLimited, isTokenRefused, mayPass } from './cloud-failures.ts';

/*
 * Meta's refusals of a template call (`POST /{waba_id}/message_templates`, `POST /{template_id}`, `DELETE
 * /{waba_id}/message_templates`) as the API's errors. Documented (Graph API "Handling errors", WhatsApp Business
 * Management API "Message templates"): the error object's `error_user_title` and `error_user_msg` say what is wrong
 * with the template for people; 190 a token no longer taken; 3, 10 and 200–299 a permission the app lacks; 4 and
 * 80007 rate limits; 100 an invalid parameter. Assumed (seen in Meta's answers as integrations record them, not in its
 * documentation): subcode 2388024, the account has a template of that name in that language already, and 2388023,
 * one of that name and language is being deleted (Meta takes the name again four weeks after).
 */

const PERMISSION_CODES = new Set([3, 10]);
const ALREADY_EXISTS = 2388024;
const BEING_DELETED = 2388023;

/** What the caller is answered for a refusal of Meta's; `tokenRefused` switches the channel off first. */
export async function templateRefusal(err: unknown, tokenRefused: () => Promise<void>): Promise<unknown> {
  if (err instanceof GraphApiUnreachable) return new AppError('SERVICE_UNAVAILABLE', 'Meta could not be reached; try again');
  if (!(err instanceof GraphApiError)) return err;
  const said = err.userMessage ?? err.message;
  if (isRateLimited(err)) return new AppError('TOO_MANY_REQUESTS', `Meta limits the template calls of this WhatsApp Business Account for now: ${said}`);
  if (mayPass(err)) return new AppError('SERVICE_UNAVAILABLE', `Meta failed; try again (${said})`);
  if (isTokenRefused(err)) {
    await tokenRefused();
    return new AppError('CHANNEL_WRONG_STATUS', 'Meta no longer takes the channel’s token: reconnect the channel (reinit)');
  }
  if (PERMISSION_CODES.has(err.code) || (err.code >= 200 && err.code <= 299)) return new AppError('FORBIDDEN', `The app may not manage this WhatsApp Business Account’s templates: ${said}`);
  if (err.subcode === ALREADY_EXISTS) return validationError([{ field: 'template.title', message: 'the WhatsApp Business Account has a template of this name in this language already' }], 'Meta refused the template');
  if (err.subcode === BEING_DELETED) {
    return validationError([{ field: 'template.language', message: 'a template of this name in this language is being deleted; Meta takes the name again four weeks after' }], 'Meta refused the template');
  }
  return validationError([{ field: 'template', message: `Meta refused the template: ${said}` }], 'Meta refused the template');
}
