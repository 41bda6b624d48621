import type { ValidateFunction } from 'ajv';
import { cached, loadFixture, type Definitions } from './fixture.ts';

/**
 * WhatsApp's Cloud API as whatsapp-api-js types it (schemas/wapi.json, see the README there): the body of each message
 * the wapi driver sends, by its `type`; Meta's answer to a send and to a media lookup; Graph's refusal; and the
 * webhook notification of the `messages` field (a customer's message, or a report on a send). Meta publishes no
 * schema of the Cloud API on npm; whatsapp-api-js follows its reference closest, for the Graph version the driver
 * calls (v24.0, the package's default). The account's numbers, which it does not type, are checked as
 * @great-detail/whatsapp types them (schemas/wapi-numbers.json).
 */

/** Walks a schema and what it holds. */
function each(value: unknown, visit: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) value.forEach((v) => each(v, visit));
  else if (typeof value === 'object' && value !== null) {
    visit(value as Record<string, unknown>);
    Object.values(value).forEach((v) => each(v, visit));
  }
}

/**
 * Allowed deviations of the package's types from Meta's reference (listed in the README):
 * - The business-scoped user id (`contacts[].user_id`, a message's `from_user_id`), which whatsapp-api-js requires,
 *   is Meta's newer addition to the webhooks (the package itself says it cannot tell until it is in use); a
 *   notification without it is taken.
 * - Graph's refusal: whatsapp-api-js requires `error_data` and `error_subcode`, which Meta leaves out of most errors
 *   (its reference, and Meta's own OpenAPI's `GraphAPIError`, mark them optional), and names neither
 *   `error_user_title` nor `error_user_msg`, which Meta gives with a refused template (its OpenAPI has them).
 * - A template's button component carries its `index` (a string in Meta's reference); whatsapp-api-js keeps it in a
 *   protected field, which the declarations do not show.
 * - whatsapp-api-js requires a customer's image to carry a `static_url`, which Meta's webhook reference does not show:
 *   an image without it is taken.
 */
const OPTIONAL = new Set(['user_id', 'from_user_id', 'static_url']);
function metaReference(definitions: Definitions): void {
  each(definitions, (node) => {
    if (Array.isArray(node.required)) node.required = node.required.filter((field) => !OPTIONAL.has(field as string));
  });
  const error = (definitions.ServerErrorResponse!.properties!.error ?? {}) as Definitions[string];
  error.required = error.required!.filter((field) => field !== 'error_data' && field !== 'error_subcode');
  error.properties = { ...error.properties, error_user_title: { type: 'string' }, error_user_msg: { type: 'string' } };
  const button = definitions.PayloadComponent!;
  button.properties = { ...button.properties, index: { type: 'string' } };
}

const fixture = loadFixture('wapi.json', metaReference);
export const WAPI_SCHEMA_SOURCE = fixture.source;

/** Graph answers the fields a read names (and the id), so of a number only its `id` is always there. */
function fieldsAsked(definitions: Definitions): void {
  const list = definitions.WhatsAppNumbers_phone_numbers!.properties!.data as { items: Definitions[string] };
  list.items.required = ['id'];
}
const numbers = loadFixture('wapi-numbers.json', fieldsAsked);
export const WAPI_NUMBERS_SCHEMA_SOURCE = numbers.source;
const compiled = cached();
const validator = (name: string) => compiled(name, () => (fixture.has(name) ? fixture.compile({ $ref: fixture.ref(name) }) : undefined));

/** The message types the driver sends (compiled when the emulator starts). */
export const WAPI_SENDS = ['text', 'image', 'video', 'audio', 'document', 'template', 'interactive'];

export type WapiRoute = 'messages' | 'media' | 'phone_numbers';

/**
 * A Graph call's route as the checks name it: `POST /{phone_number_id}/messages` → `messages`, `GET /{media_id}` →
 * `media`, `GET /{waba_id}/phone_numbers` → `phone_numbers`; null for a call not checked (the driver's other calls:
 * Embedded Signup's, registration, templates, subscriptions; no package types them).
 */
export function wapiRouteOf(method: string, path: string, isMedia: (id: string) => boolean): WapiRoute | null {
  const segments = path.split('/').filter(Boolean);
  if (method === 'POST' && segments.length === 2 && segments[1] === 'messages') return 'messages';
  if (method === 'GET' && segments.length === 2 && segments[1] === 'phone_numbers') return 'phone_numbers';
  if (method === 'GET' && segments.length === 1 && isMedia(segments[0]!)) return 'media';
  return null;
}

/** The body of a send, by its `type`; a type not among WAPI_SENDS fails (declare it in wapi-sources.ts first). */
export const wapiSend = (body: Record<string, unknown>): ValidateFunction | undefined =>
  fixture.has(`WapiBody_${String(body.type)}`) ? validator(`WapiBody_${String(body.type)}`) : compiled('unknown send', () => fixture.compile({ properties: { type: { enum: WAPI_SENDS } } }));
/** Meta's answer to a checked route, a refusal (any route) as Graph's error. */
export function wapiAnswer(route: WapiRoute | null, status: number): ValidateFunction | undefined {
  if (status >= 400) return validator('WapiError');
  if (route === 'phone_numbers') return compiled('numbers', () => numbers.compile({ $ref: numbers.ref('WhatsAppNumbers_phone_numbers') }));
  return route ? validator(`WapiAnswer_${route}`) : undefined;
}
/** The notification Meta posts for the `messages` field. */
export const wapiWebhook = (): ValidateFunction | undefined => validator('WapiWebhook');
