import { Type, type Static, type TSchema } from 'typebox';

/** Every successful response: `{data, meta: {timestamp}}` (interface, "Common response envelope"). */
export const Meta = Type.Object({
  timestamp: Type.Integer({ description: 'Unix time in seconds.' }),
});

export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ data, meta: Meta }, { additionalProperties: false });

export const NullEnvelope = Envelope(Type.Null());

export type EnvelopeOf<T> = { data: T; meta: Static<typeof Meta> };
