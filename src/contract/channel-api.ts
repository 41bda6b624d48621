import { Type, type Static, type TSchema } from 'typebox';
import { TransportCapabilities, tiers, transports, type Transport } from './channels.ts';
import { credentialFields, type CredentialField } from './credential-fields.ts';

const nonEmpty = (description: string) => Type.String({ minLength: 1, maxLength: 4096, pattern: '\\S', description });

/** A credentials object of exactly these fields, each a non-empty string. */
const credentialsObject = (fields: readonly CredentialField[]) =>
  Type.Object(Object.fromEntries(fields.map((f) => [f.name, nonEmpty(f.description)])), { additionalProperties: false });

/** The credentials schema of each of these transports. */
function credentialsSchemasOf<K extends Transport>(keys: readonly K[]): Record<K, TSchema> {
  const schemas = {} as Record<K, TSchema>;
  for (const transport of keys) schemas[transport] = credentialsObject(credentialFields[transport]);
  return schemas;
}

/** `credentials` of a channel connected in the channels frame, per transport: every API transport's, and VK's. */
export const frameCredentialsSchemas = credentialsSchemasOf(transports);

/** `credentials` of POST /v2/channels and …/reinit, per transport: every transport but VK (it connects only in the frame). */
export const credentialsSchemas = credentialsSchemasOf(transports.filter((t): t is Exclude<Transport, 'vk'> => t !== 'vk'));

export type ApiTransport = keyof typeof credentialsSchemas;
export const apiTransports = Object.keys(credentialsSchemas) as ApiTransport[];

/**
 * A create body taking these transports, each with its credentials schema chosen by `transport` (so a failure
 * names `credentials.<field>`).
 */
function createChannelBody<K extends Transport, A extends string = never>(keys: K[], descriptions: { transport: string; credentials: string }, aliases: readonly A[] = []) {
  return Type.Object(
    {
      transport: Type.Enum([...keys, ...aliases], { description: descriptions.transport }),
      credentials: Type.Record(Type.String(), Type.Unknown(), { description: descriptions.credentials }),
    },
    {
      additionalProperties: false,
      allOf: [
        ...keys.map((transport) => ({
          if: { properties: { transport: { const: transport } }, required: ['transport'] },
          then: { properties: { credentials: frameCredentialsSchemas[transport] } },
        })),
        // A transport named as the original service names it takes no credentials: the owner logs in instead.
        ...aliases.map((alias) => ({
          if: { properties: { transport: { const: alias } }, required: ['transport'] },
          then: { properties: { credentials: credentialsObject([]) } },
        })),
      ],
    },
  );
}

/**
 * Transports as the original service's clients name them on creation, and the channel each makes: `instagram` is an
 * instAPI channel whose owner connects it by Facebook Login (its `url`) rather than with the four fields.
 */
export const transportAliases = { instagram: 'instAPI' } as const satisfies Record<string, Transport>;
export type TransportAlias = keyof typeof transportAliases;

export const CreateChannelBody = createChannelBody(
  apiTransports,
  {
    transport:
      'VK channels are connected through POST /v2/iframe-links/channels. `instagram` makes an instAPI channel connected by Facebook Login: it answers the login’s `url`, as wapi does.',
    credentials: 'Empty for tgapi, wapi, whatsapp, viber, max, and instagram.',
  },
  Object.keys(transportAliases) as TransportAlias[],
);
export type CreateChannelBody = Static<typeof CreateChannelBody>;

/** POST /bff/channels: as POST /v2/channels, and VK, which connects only in the channels frame. */
export const FrameCreateChannelBody = createChannelBody([...transports], {
  transport: 'Every transport; VK answers a `url` to authorize the community at.',
  credentials: 'Empty for vk, tgapi, wapi, whatsapp, viber, max.',
});
export type FrameCreateChannelBody = Static<typeof FrameCreateChannelBody>;

export const ReinitChannelBody = Type.Object(
  { credentials: Type.Record(Type.String(), Type.Unknown(), { description: 'The same contents as on creation.' }) },
  { additionalProperties: false },
);

export const TwoFactorBody = Type.Object(
  { two_factor_code: Type.String({ minLength: 1, maxLength: 256 }), transport: Type.Enum(apiTransports) },
  { additionalProperties: false },
);

export const PairingCodeBody = Type.Object(
  {
    pairing_phone: Type.String({ pattern: '^[1-9][0-9]{6,14}$', description: 'International number, digits only, no plus.' }),
    transport: Type.Enum(['whatsapp']),
  },
  { additionalProperties: false },
);

export const PairingCode = Type.Object({ pairing_code: Type.String({ minLength: 8, maxLength: 8 }), pairing_phone: Type.String() });

export const ChannelIdParams = Type.Object({ channel_id: Type.String({ format: 'uuid' }) });
export const DeleteChannelQuery = Type.Object({ delete_chats: Type.Optional(Type.Boolean({ default: false })) });

const nullableString = Type.Union([Type.String(), Type.Null()]);

export const Tariff = Type.Object({
  plan: Type.String({ description: 'Billing plan of the channel.' }),
  paid: Type.Boolean({ description: 'False when the channel is disabled for not_enough_money.' }),
});

export const Channel = Type.Object({
  channel_id: Type.String({ format: 'uuid' }),
  transport: Type.Enum([...transports]),
  state: Type.String({ description: 'Deprecated: the reason when there is one, else the status.' }),
  status: Type.Enum(['active', 'init', 'disabled']),
  reason: nullableString,
  phone: nullableString,
  username: nullableString,
  messenger_id: nullableString,
  name: nullableString,
  url: Type.Optional(Type.String({ description: 'Authorization URL (wapi) while it must still be followed.' })),
  tier: Type.Union([Type.Enum([...tiers]), Type.Null()]),
  tariff: Tariff,
  capabilities: TransportCapabilities,
});
export type Channel = Static<typeof Channel>;

export const ChannelCreated = Type.Object({
  channel_id: Type.String({ format: 'uuid' }),
  transport: Type.Enum([...transports]),
  status: Channel.properties.status,
  reason: Channel.properties.reason,
  state: Channel.properties.state,
  url: Type.Optional(Type.String()),
});
export type ChannelCreated = Static<typeof ChannelCreated>;
