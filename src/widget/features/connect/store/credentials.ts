import type { Transport } from '../../../../contract/channels.ts';
import { credentialFields as contractFields } from '../../../../contract/credential-fields.ts';

/** One credentials input of the connect form. */
export interface CredentialField {
  name: string;
  label: string;
  /** The contract's own description of the field. */
  hint: string;
}

const labels: Record<string, string> = {
  telegram_token: 'Bot token',
  access_token: 'Bot access token',
  code: 'Authorization code',
  username: 'Instagram account name',
  page_id: 'Facebook page ID',
  inst_id: 'Instagram business account ID',
  user_token: 'User access token',
};

/**
 * The inputs a transport needs in this frame, from the contract's table that the gateway's credentials schemas
 * are built from, so the two never drift (and the frame loads no schema library for it).
 */
export function credentialFields(transport: Transport): CredentialField[] {
  return contractFields[transport].map(({ name, description }) => ({ name, label: labels[name] ?? name, hint: description }));
}

/** The credentials to send: each field trimmed (a pasted token often carries a space or a line break). */
export function credentialsOf(transport: Transport, values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(credentialFields(transport).map((f) => [f.name, (values[f.name] ?? '').trim()]));
}

/** What is missing before sending, per field. */
export function missingFields(transport: Transport, values: Readonly<Record<string, string>>): Record<string, string> {
  const missing: Record<string, string> = {};
  for (const f of credentialFields(transport)) if (!(values[f.name] ?? '').trim()) missing[f.name] = `Enter the ${f.label.toLowerCase()}.`;
  return missing;
}

/**
 * The phone a pairing code is asked for: digits only, as the gateway takes it. People type "+7 (900) 111-22-33";
 * a leading 00 is the international prefix, not part of the number.
 */
export function pairingPhone(input: string): { phone: string } | { error: string } {
  const digits = input.replace(/[\s()+\-.]/g, '').replace(/^00/, '');
  if (!/^[1-9][0-9]{6,14}$/.test(digits)) return { error: 'Enter the full international number with the country code, e.g. +7 900 111 22 33.' };
  return { phone: digits };
}

/** A pairing code as WhatsApp shows it: two groups of four, easier to read and type. */
export const formatPairingCode = (code: string): string => (code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code);
