import { randomInt } from 'node:crypto';
import type { ApiTransport } from '../../../contract/channel-api.ts';
import { AppError, validationError } from '../errors.ts';
import { applyTrigger, channelNotFound, qrFromSession, qrIsLive, withChannel, wrongStatus } from './channel-steps.ts';
import type { ChannelDeps, ChannelRecord } from './ports.ts';

function assertTransport(channel: ChannelRecord, transport: ApiTransport): void {
  if (channel.transport !== transport) {
    throw validationError([{ field: 'transport', message: `does not match the channel's transport (${channel.transport})` }]);
  }
}

const waitingForPassword = (channel: ChannelRecord) => channel.state.status === 'init' && channel.state.reason === 'wait_for_password';

/** POST /v2/channels/{id}/auth/2fa: the password of the account that scanned; the right one makes it active. */
export async function submitTwoFactor(
  deps: ChannelDeps,
  accountId: string,
  channelId: string,
  input: { two_factor_code: string; transport: ApiTransport },
): Promise<null> {
  const channel = await deps.store.channels.get(accountId, channelId);
  if (!channel) throw channelNotFound(channelId);
  assertTransport(channel, input.transport);
  if (!waitingForPassword(channel)) throw wrongStatus(channel, 'Channel is not waiting for a two-factor password');
  // The messenger is asked outside the transaction: the driver does its own I/O.
  const accepted = await deps.driver.checkTwoFactor({ accountId, channelId, phone: channel.phone, code: input.two_factor_code });
  if (!accepted) throw new AppError('TWO_FACTOR_CODE_INVALID', 'Two-factor code is invalid', { field: 'two_factor_code' });
  await withChannel(deps, accountId, channelId, (tx, current) => applyTrigger(tx, deps, current, 'password_accepted'));
  return null;
}

/** WhatsApp's pairing codes: 8 characters of capitals and digits, without the look-alikes 0/O and 1/I. */
const PAIRING_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newPairingCode = (): string => Array.from({ length: 8 }, () => PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)]).join('');

/** POST /v2/channels/{id}/pairing-code: an alternative to scanning, valid only while a QR is live. */
export async function requestPairingCode(
  deps: ChannelDeps,
  accountId: string,
  channelId: string,
  input: { pairing_phone: string; transport: 'whatsapp' },
): Promise<{ pairing_code: string; pairing_phone: string }[]> {
  return withChannel(deps, accountId, channelId, async (tx, channel) => {
    assertTransport(channel, input.transport);
    if (!deps.rules[channel.transport].capabilities.pairing_code) {
      throw validationError([{ field: 'transport', message: 'this transport has no pairing code' }]);
    }
    if (!qrIsLive(channel, deps.clock.now(), qrFromSession(deps, channel))) {
      throw new AppError('CHANNEL_QR_EXPIRED', 'No QR code is live; reinit the channel first', {
        status: channel.state.status,
        reason: channel.state.reason,
      });
    }
    const code = deps.driver.pairingCode ? await deps.driver.pairingCode(channelId, input.pairing_phone) : newPairingCode();
    const pairing = { code, phone: input.pairing_phone };
    await tx.channels.update({ ...channel, pairing, updatedAt: deps.clock.now() });
    return [{ pairing_code: pairing.code, pairing_phone: pairing.phone }];
  });
}
