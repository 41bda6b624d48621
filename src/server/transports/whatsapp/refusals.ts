import type { FailureReason } from '../../../contract/messages.ts';
import { disconnectCode, WaDisconnect } from './wa-socket.ts';

/**
 * What WhatsApp's refusals of a message mean for the interface. WhatsApp answers a send in two places: the call
 * itself fails with the error code of WhatsApp's answer (the library's Boom error: the code in `data`, or the
 * connection's status code), or the message is taken and refused later in its acknowledgement (a receipt with status
 * ERROR and the code as its first stub parameter).
 */

/** The error code of WhatsApp's answer to a call (`<error code="403" text="forbidden"/>`), else the connection's. */
const codeOf = (err: unknown): number | undefined => {
  const data = (err as { data?: unknown } | undefined)?.data;
  return typeof data === 'number' && Number.isFinite(data) ? data : disconnectCode(err);
};

/** A send WhatsApp refused for good, as the interface's reason; null when it may pass (the connection, a wait). */
export function sendRefusal(err: unknown): FailureReason | null {
  switch (codeOf(err)) {
    case 403:
      // A group the account is not (or no longer) a member of.
      return 'no_user_permissions';
    case 404:
      // A group that does not exist (any more).
      return 'bad_contact';
    case WaDisconnect.loggedOut:
      return 'session_revoked';
    default:
      return null;
  }
}

/** WhatsApp asked the account to slow down (`rate-overlimit`): tried again after a wait rather than at once. */
export const RATE_LIMITED_WAIT_MS = 60_000;
export const isRateLimited = (err: unknown): boolean => codeOf(err) === 429;

/** The code of an acknowledgement that refused the account's message (463: the account may not start chats now). */
export function ackRefusal(code: string | undefined): FailureReason {
  return code === '463' ? 'is_spam' : 'unknown_error';
}
