import type { ChannelRecord } from '../../core/channels/ports.ts';
import { graphApi } from '../meta/graph-api.ts';
import { exchangeLoginCode, metaUnavailable } from '../meta/login-code.ts';
import { isMetaId, type WhatsAppDeps } from './account.ts';
import { refusals } from './refusals.ts';

/**
 * What Embedded Signup's code is worth: the business's token (`GET /oauth/access_token` with the app's id and secret
 * and the code), the accounts it was granted (`GET /debug_token`: `granular_scopes`, `whatsapp_business_management`
 * and `whatsapp_business_messaging`, each with the `target_ids` of the accounts), and their numbers no other channel
 * has (`GET /{waba_id}/phone_numbers` with `display_phone_number`, `verified_name`, `quality_rating`,
 * `messaging_limit_tier`, `platform_type`; all documented).
 */

/** A number of the accounts granted that no other channel has, as Meta lists it (kept, sealed, while the owner chooses). */
export interface FreeNumber {
  wabaId: string;
  id: string;
  display_phone_number: string | null;
  verified_name: string | null;
  /** Documented: GREEN, YELLOW, RED, or UNKNOWN (not rated yet). */
  quality_rating: string | null;
  messaging_limit_tier: string | null;
  /** `CLOUD_API` once registered with the Cloud API. */
  platform_type: string | null;
}

const PHONE_FIELDS = 'id,display_phone_number,verified_name,quality_rating,messaging_limit_tier,platform_type';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const textOrNull = (x: unknown): string | null => (typeof x === 'string' && x.length > 0 && x.length <= 512 ? x : null);

/** Meta out of reach, or failing: nothing changed, and the owner may come back again (the page says so). */
export const unavailable = metaUnavailable;

/** The accounts the business token was granted for a scope, as `debug_token` tells. */
function targetsOf(scopes: unknown, scope: string): string[] {
  const rows = Array.isArray(scopes) ? scopes : [];
  return rows.flatMap((row) => (isObject(row) && row.scope === scope && Array.isArray(row.target_ids) ? row.target_ids.filter(isMetaId) : []));
}

/** Whether another channel than `channelId` has the number. */
export async function takenByAnother(deps: WhatsAppDeps, channelId: string, phoneNumberId: string): Promise<boolean> {
  return (await deps.channels.listByMessengerId('wapi', phoneNumberId)).some((c) => c.id !== channelId);
}

/**
 * The code exchanged (once: Meta takes a code once), and the numbers of the accounts granted that no other channel
 * has, the channel's own number (before a reinit) first. Throws where Meta could not be asked.
 */
export async function signupOf(deps: WhatsAppDeps, channel: ChannelRecord, code: string): Promise<{ token: string; numbers: FreeNumber[] } | { refused: string }> {
  const exchanged = await exchangeLoginCode(deps, 'wapi', code);
  if ('refused' in exchanged) return { refused: refusals.codeRefused };
  const token = exchanged.token;

  let wabaIds: string[];
  try {
    const appToken = graphApi(deps.graphUrl, `${deps.appId}|${deps.appSecret}`, deps.appSecret, deps.timeoutMs);
    const debug = await appToken.call<{ data?: { granular_scopes?: unknown } }>('GET', '/debug_token', { query: { input_token: token } });
    const scopes = debug.data?.granular_scopes;
    if (!(Array.isArray(scopes) && scopes.some((s) => isObject(s) && s.scope === 'whatsapp_business_messaging'))) return { refused: refusals.noMessaging };
    wabaIds = [...new Set(targetsOf(scopes, 'whatsapp_business_management'))];
  } catch (err) {
    throw unavailable(err, 'GET /debug_token');
  }
  if (wabaIds.length === 0) return { refused: refusals.noAccount };

  const business = graphApi(deps.graphUrl, token, deps.appSecret, deps.timeoutMs);
  const numbers: FreeNumber[] = [];
  for (const wabaId of wabaIds) {
    let listed: unknown[];
    try {
      const answer = await business.call<{ data?: unknown }>('GET', `/${wabaId}/phone_numbers`, { query: { fields: PHONE_FIELDS } });
      listed = Array.isArray(answer.data) ? answer.data : [];
    } catch (err) {
      throw unavailable(err, `GET /${wabaId}/phone_numbers`);
    }
    for (const n of listed) {
      if (!isObject(n) || !isMetaId(n.id) || (await takenByAnother(deps, channel.id, n.id))) continue;
      numbers.push({
        wabaId,
        id: n.id,
        display_phone_number: textOrNull(n.display_phone_number),
        verified_name: textOrNull(n.verified_name),
        quality_rating: textOrNull(n.quality_rating),
        messaging_limit_tier: textOrNull(n.messaging_limit_tier),
        platform_type: textOrNull(n.platform_type),
      });
    }
  }
  if (numbers.length === 0) return { refused: refusals.noNumber };
  const own = channel.messengerId;
  return { token, numbers: numbers.sort((a, b) => Number(b.id === own) - Number(a.id === own)) };
}
