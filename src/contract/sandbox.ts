import { Type, type Static } from 'typebox';
import { tiers } from './channels.ts';

/** The sandbox API: the simulated messenger network's other side (GAPS.md, "The sandbox"). */

const Phone = Type.String({ pattern: '^[1-9][0-9]{6,14}$', description: 'International number, digits only, no plus.' });

export const ScanBody = Type.Object(
  { phone: Type.Optional(Phone) },
  {
    additionalProperties: false,
    description: 'Without `phone`: the phone the pairing code was issued for, else the channel’s own phone, else a stable sandbox number.',
  },
);
export type ScanBody = Static<typeof ScanBody>;

export const PhoneParams = Type.Object({ phone: Phone });

export const TwoFactorPasswordBody = Type.Object(
  { password: Type.Union([Type.String({ minLength: 1, maxLength: 256 }), Type.Null()], { description: 'null removes the password.' }) },
  { additionalProperties: false },
);

export const SandboxPhone = Type.Object({ phone: Type.String(), two_factor: Type.Boolean() });

export const TierBody = Type.Object({ tier: Type.Enum([...tiers]) }, { additionalProperties: false });

export const PaymentBody = Type.Object(
  { paid: Type.Boolean({ description: 'false: the channel becomes disabled / not_enough_money; true: active again.' }) },
  { additionalProperties: false },
);

export const AuthorizeQuery = Type.Object({ state: Type.String({ minLength: 1, maxLength: 200 }) });
