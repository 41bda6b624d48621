import { Type, type Static } from 'typebox';

/** Channel kinds as v3 names them: the gateway's `instAPI` is `instagram`. */
export const v3Transports = ['whatsapp', 'wapi', 'instagram', 'tgapi', 'telegram', 'vk', 'avito', 'viber', 'max', 'maxbot'] as const;
export type V3Transport = (typeof v3Transports)[number];

/** Channel states in the spelling the v3 channel list uses (lower-case `qridle`, `openelsewhere`, `foreignphone`). */
export const v3ChannelStates = [
  'active',
  'init',
  'disabled',
  'phoneUnavailable',
  'qridle',
  'openelsewhere',
  'notEnoughMoney',
  'foreignphone',
  'unauthorized',
  'waitForPassword',
  'blocked',
  'onModeration',
  'rejected',
] as const;
export type V3ChannelState = (typeof v3ChannelStates)[number];

export const V3Channel = Type.Object({
  channelId: Type.String({ format: 'uuid', description: 'Used as `channelId` when sending.' }),
  transport: Type.Enum([...v3Transports]),
  plainId: Type.String({ description: 'Phone number, username or id of the account in the messenger ("" before it is known).' }),
  state: Type.Enum([...v3ChannelStates], { description: 'Only `active` sends.' }),
  name: Type.String({ description: 'The channel\'s title ("" when it has none).' }),
});
export type V3Channel = Static<typeof V3Channel>;

export const V3ChannelList = Type.Array(V3Channel);
