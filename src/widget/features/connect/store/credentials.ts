import type { Transport } from '../../../../contract/channels.ts';
import { credentialFields as contractFields } from '../../../../contract/credential-fields.ts';
import { catalog, type Lang } from '@/lib/i18n.ts';

/** One credentials input of the connect form. */
export interface CredentialField {
  name: string;
  label: string;
  /** The contract's own description of the field (in English), or its translation. */
  hint: string;
  /** What the form says when the input is left empty. */
  missing: string;
}

/** The words of one input; English takes its hint from the contract, other languages give their own. */
interface FieldWords {
  label: string;
  hint?: string;
  missing: string;
}

/**
 * The words of the credentials inputs, keyed by the contract's field names. The contract may gain a field before
 * a catalog does: the form then shows the contract's English words for it (and a unit test says what is missing).
 */
export const fieldWords = catalog<Readonly<Record<string, FieldWords | undefined>>>(
  {
    telegram_token: { label: 'Bot token', missing: 'Enter the bot token.' },
    access_token: { label: 'Bot access token', missing: 'Enter the bot access token.' },
    code: { label: 'Authorization code', missing: 'Enter the authorization code.' },
    username: { label: 'Instagram account name', missing: 'Enter the Instagram account name.' },
    page_id: { label: 'Facebook page ID', missing: 'Enter the Facebook page ID.' },
    inst_id: { label: 'Instagram business account ID', missing: 'Enter the Instagram business account ID.' },
    user_token: { label: 'User access token', missing: 'Enter the user access token.' },
  },
  {
    ru: {
      telegram_token: { label: 'Токен бота', hint: 'Токен бота от @BotFather.', missing: 'Введите токен бота.' },
      access_token: { label: 'Токен доступа бота', hint: 'Токен доступа бота.', missing: 'Введите токен доступа бота.' },
      code: { label: 'Код авторизации', hint: 'Код авторизации.', missing: 'Введите код авторизации.' },
      username: { label: 'Имя пользователя Instagram', hint: 'Имя пользователя в Instagram.', missing: 'Введите имя пользователя Instagram.' },
      page_id: { label: 'ID страницы Facebook', hint: 'Идентификатор страницы Facebook.', missing: 'Введите ID страницы Facebook.' },
      inst_id: { label: 'ID бизнес-аккаунта Instagram', hint: 'Идентификатор бизнес-аккаунта Instagram.', missing: 'Введите ID бизнес-аккаунта Instagram.' },
      user_token: { label: 'Токен доступа пользователя', hint: 'Токен доступа пользователя.', missing: 'Введите токен доступа пользователя.' },
    },
    es: {
      telegram_token: { label: 'Token del bot', hint: 'El token del bot que da @BotFather.', missing: 'Introduzca el token del bot.' },
      access_token: { label: 'Token de acceso del bot', hint: 'El token de acceso del bot.', missing: 'Introduzca el token de acceso del bot.' },
      code: { label: 'Código de autorización', hint: 'El código de autorización.', missing: 'Introduzca el código de autorización.' },
      username: { label: 'Nombre de la cuenta de Instagram', hint: 'El nombre de usuario en Instagram.', missing: 'Introduzca el nombre de la cuenta de Instagram.' },
      page_id: { label: 'ID de la página de Facebook', hint: 'El identificador de la página de Facebook.', missing: 'Introduzca el ID de la página de Facebook.' },
      inst_id: { label: 'ID de la cuenta comercial de Instagram', hint: 'El identificador de la cuenta comercial de Instagram.', missing: 'Introduzca el ID de la cuenta comercial de Instagram.' },
      user_token: { label: 'Token de acceso del usuario', hint: 'El token de acceso del usuario.', missing: 'Introduzca el token de acceso del usuario.' },
    },
    pt: {
      telegram_token: { label: 'Token do bot', hint: 'O token do bot fornecido pelo @BotFather.', missing: 'Digite o token do bot.' },
      access_token: { label: 'Token de acesso do bot', hint: 'O token de acesso do bot.', missing: 'Digite o token de acesso do bot.' },
      code: { label: 'Código de autorização', hint: 'O código de autorização.', missing: 'Digite o código de autorização.' },
      username: { label: 'Nome da conta do Instagram', hint: 'O nome de usuário no Instagram.', missing: 'Digite o nome da conta do Instagram.' },
      page_id: { label: 'ID da página do Facebook', hint: 'O identificador da página do Facebook.', missing: 'Digite o ID da página do Facebook.' },
      inst_id: { label: 'ID da conta comercial do Instagram', hint: 'O identificador da conta comercial do Instagram.', missing: 'Digite o ID da conta comercial do Instagram.' },
      user_token: { label: 'Token de acesso do usuário', hint: 'O token de acesso do usuário.', missing: 'Digite o token de acesso do usuário.' },
    },
  },
);

/** For a field no catalog names: the contract's description is its label, said without the full stop. */
const fallback = catalog({ missing: (label: string) => `Fill in “${label}”.` }, {
  ru: { missing: (label) => `Заполните поле «${label}».` },
  es: { missing: (label) => `Complete «${label}».` },
  pt: { missing: (label) => `Preencha “${label}”.` },
});

/**
 * The inputs a transport needs in this frame, from the contract's table that the gateway's credentials schemas
 * are built from, so the two never drift (and the frame loads no schema library for it), in the screen's language.
 */
export function credentialFields(transport: Transport, lang: Lang): CredentialField[] {
  return contractFields[transport].map(({ name, description }) => {
    const words = fieldWords[lang][name];
    const label = words?.label ?? description.replace(/\.$/, '');
    return { name, label, hint: words?.hint ?? description, missing: words?.missing ?? fallback[lang].missing(label) };
  });
}

/** The credentials to send: each field trimmed (a pasted token often carries a space or a line break). */
export function credentialsOf(transport: Transport, values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(contractFields[transport].map((f) => [f.name, (values[f.name] ?? '').trim()]));
}

/** What is missing before sending, per field, in the screen's language. */
export function missingFields(transport: Transport, values: Readonly<Record<string, string>>, lang: Lang): Record<string, string> {
  const missing: Record<string, string> = {};
  for (const f of credentialFields(transport, lang)) if (!(values[f.name] ?? '').trim()) missing[f.name] = f.missing;
  return missing;
}

const phoneWords = catalog(
  { invalid: 'Enter the full international number with the country code, e.g. +7 900 111 22 33.' },
  {
    ru: { invalid: 'Введите номер полностью, с кодом страны, например +7 900 111 22 33.' },
    es: { invalid: 'Introduzca el número internacional completo con el código de país, p. ej. +34 612 345 678.' },
    pt: { invalid: 'Digite o número internacional completo com o código do país, p. ex. +55 11 91234-5678.' },
  },
);

/**
 * The phone a pairing code is asked for: digits only, as the gateway takes it. People type "+7 (900) 111-22-33";
 * a leading 00 is the international prefix, not part of the number.
 */
export function pairingPhone(input: string, lang: Lang): { phone: string } | { error: string } {
  const digits = input.replace(/[\s()+\-.]/g, '').replace(/^00/, '');
  if (!/^[1-9][0-9]{6,14}$/.test(digits)) return { error: phoneWords[lang].invalid };
  return { phone: digits };
}

/** A pairing code as WhatsApp shows it: two groups of four, easier to read and type. */
export const formatPairingCode = (code: string): string => (code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code);
