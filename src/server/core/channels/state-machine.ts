import type { ChannelReason, ChannelState, ChannelStatus } from '../../../contract/channels.ts';

/**
 * What can happen to a channel. Connection triggers come from the API (create, reinit, 2FA) and the
 * messenger side (scans, logouts, moderation, billing); each row of the table says from which states
 * it is valid and where it leads.
 */
export type ChannelTrigger =
  | 'qr_connect_started' // create or reinit of a QR transport: a QR must be scanned
  | 'credentials_accepted' // create or reinit with a valid bot token, code or fields
  | 'redirect_issued' // wapi: the user must follow the authorization URL
  | 'redirect_completed' // wapi: the authorization URL was followed
  | 'qr_scanned' // the account's own phone scanned the QR or confirmed the pairing code
  | 'qr_scanned_needs_password' // scanned, and the account has two-factor authentication
  | 'qr_scanned_by_foreign_phone' // another phone than the channel's scanned on reinit
  | 'qr_exhausted' // the last of the QR codes expired unscanned
  | 'history_synced' // history loaded after the scan
  | 'password_accepted' // the right two-factor password
  | 'logged_out' // the session was ended on the phone, or the bot token was revoked
  | 'blocked' // the platform owner blocked the business-API number
  | 'rejected' // the business-API number was rejected
  | 'payment_missed' // the channel is not paid
  | 'payment_received' // paid again
  | 'opened_elsewhere' // the account was authorized in another account of the service
  | 'session_unreachable' // a running session's connection has been down past its threshold (reconnecting)
  | 'session_restored' // that connection opened again
  | 'deleted'; // deleted with its history kept: off for good

type StatePattern = { status: ChannelStatus; reason?: ChannelReason | null };

export interface TransitionRow {
  trigger: ChannelTrigger;
  from: 'any' | StatePattern[];
  to: ChannelState;
}

const active: ChannelState = { status: 'active', reason: null };
const init = (reason: ChannelState['reason'] & {}): StatePattern => ({ status: 'init', reason });

/** The table. A trigger absent from a state's rows is not valid in that state. */
export const transitions: readonly TransitionRow[] = [
  { trigger: 'qr_connect_started', from: 'any', to: { status: 'init', reason: 'qr' } },
  { trigger: 'credentials_accepted', from: 'any', to: active },
  { trigger: 'redirect_issued', from: 'any', to: { status: 'init', reason: null } },
  { trigger: 'redirect_completed', from: [{ status: 'init', reason: null }], to: active },
  { trigger: 'qr_scanned', from: [init('qr')], to: { status: 'init', reason: 'sync' } },
  { trigger: 'qr_scanned_needs_password', from: [init('qr')], to: { status: 'init', reason: 'wait_for_password' } },
  { trigger: 'qr_scanned_by_foreign_phone', from: [init('qr')], to: { status: 'disabled', reason: 'foreignphone' } },
  { trigger: 'qr_exhausted', from: [init('qr')], to: { status: 'disabled', reason: 'qridle' } },
  { trigger: 'history_synced', from: [init('sync')], to: active },
  { trigger: 'password_accepted', from: [init('wait_for_password')], to: active },
  { trigger: 'logged_out', from: [{ status: 'active' }, { status: 'init' }], to: { status: 'disabled', reason: 'unauthorized' } },
  { trigger: 'blocked', from: [{ status: 'active' }, { status: 'init' }], to: { status: 'disabled', reason: 'blocked' } },
  { trigger: 'rejected', from: [{ status: 'init' }], to: { status: 'disabled', reason: 'rejected' } },
  { trigger: 'payment_missed', from: [{ status: 'active' }, { status: 'init' }], to: { status: 'disabled', reason: 'not_enough_money' } },
  { trigger: 'payment_received', from: [{ status: 'disabled', reason: 'not_enough_money' }], to: active },
  { trigger: 'opened_elsewhere', from: [{ status: 'active' }, { status: 'init' }], to: { status: 'disabled', reason: 'openelsewhere' } },
  { trigger: 'session_unreachable', from: [{ status: 'active' }], to: { status: 'init', reason: null } },
  { trigger: 'session_restored', from: [{ status: 'init', reason: null }], to: active },
  { trigger: 'deleted', from: 'any', to: { status: 'disabled', reason: null } },
];

const matches = (state: ChannelState, pattern: StatePattern): boolean =>
  state.status === pattern.status && (pattern.reason === undefined || pattern.reason === state.reason);

export type TransitionResult = { ok: true; state: ChannelState; changed: boolean } | { ok: false; from: ChannelState; trigger: ChannelTrigger };

/** Where `trigger` leads from `state`, or a refusal when the table has no row for it. Pure. */
export function transition(state: ChannelState, trigger: ChannelTrigger): TransitionResult {
  const row = transitions.find((r) => r.trigger === trigger && (r.from === 'any' || r.from.some((p) => matches(state, p))));
  if (!row) return { ok: false, from: state, trigger };
  return { ok: true, state: row.to, changed: row.to.status !== state.status || row.to.reason !== state.reason };
}

/** The deprecated `state` field: the reason when there is one, else the status. */
export const legacyState = (state: ChannelState): string => state.reason ?? state.status;

/** The state a connection trigger valid from any state leads to: where a new channel starts. */
export function startingState(trigger: ChannelTrigger): ChannelState {
  const row = transitions.find((r) => r.trigger === trigger && r.from === 'any');
  if (!row) throw new Error(`${trigger} cannot start a channel`);
  return row.to;
}
