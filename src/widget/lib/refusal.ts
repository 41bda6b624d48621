import type { CredentialRefusal } from '../../contract/credential-fields.ts';
import type { ErrorCode, FieldError } from '../../contract/errors.ts';
import { BffError } from './bff-client.ts';
import { catalog, type Lang } from './i18n.ts';

/** A failed /bff call as a screen says it: the gateway's description, and what it said per input. */
export interface Refusal {
  code: string | null;
  message: string;
  /** Messages by input name (`credentials.telegram_token` is the `telegram_token` input). */
  fields: Record<string, string>;
}

/** What the gateway says of a credentials field the connect frame asks for, in Russian: every refusal it can say. */
const ruDetails: Readonly<Record<CredentialRefusal, string>> = {
  'is required': 'обязательное поле',
  'is not allowed': 'лишнее поле',
  'was revoked': 'отозван',
  'was not accepted by Telegram': 'Telegram его не принял',
  'was not accepted by MAX': 'MAX его не принял',
  'was not accepted by Avito': 'Авито его не принял',
  'is not a bot token of the form <digits>:<35 characters>': 'это не токен бота (вида <цифры>:<35 символов>)',
  'is not a bot token of the form <digits>:<letters, digits, _ and ->': 'это не токен бота (вида <цифры>:<буквы, цифры, _ и ->)',
  'must be at least 20 characters without spaces': 'не короче 20 символов, без пробелов',
  'is not an authorization code': 'это не код авторизации',
  'must not contain @': 'без символа @',
  'was not accepted by Meta': 'Meta его не приняла',
  'must be digits only': 'только цифры',
  'lacks the permissions instagram_basic, instagram_manage_messages and pages_manage_metadata':
    'не хватает разрешений instagram_basic, instagram_manage_messages и pages_manage_metadata',
  'is not a Facebook page this user token manages': 'это не страница Facebook, которой управляет этот токен',
  'is not the Instagram account linked to this page': 'это не аккаунт Instagram, привязанный к этой странице',
  'is not the name of this Instagram account': 'это не имя этого аккаунта Instagram',
};
/** What the gateway says of a message's recipient, in Russian: the refusals an agent can meet in the chat frame. */
const ruElsewhere: Readonly<Record<string, string>> = {
  'recipient.chat_id must be an international number: digits only, no plus, with a valid country code':
    'номер получателя должен быть международным: только цифры, без плюса, с верным кодом страны',
  'recipient.phone must be an international number: digits only, no plus, with a valid country code':
    'телефон получателя должен быть международным: только цифры, без плюса, с верным кодом страны',
  'recipient.chat_id is required': 'не указан получатель',
  'recipient.chat_type is not a chat type of this channel': 'этот канал не пишет в такие чаты',
};

const isKnownRefusal = (message: string): message is CredentialRefusal => Object.hasOwn(ruDetails, message);

/**
 * What a refusal says in each language. English takes the gateway's own description, which is English and may be
 * more precise than the code; other languages say the code in their words (the gateway's text is kept where
 * there is none).
 */
const words = catalog<{
  unreachable: string;
  codes: Partial<Record<ErrorCode, string>>;
  /** One detail of the gateway's for a field, in the screen's language. */
  detail: (message: string) => string;
  /** A field's details, already said, after its label. */
  field: (label: string, details: string) => string;
  /** What the gateway said of an input the screen does not show; null where the language cannot say it. */
  elsewhere: (field: string, message: string) => string | null;
}>(
  {
    unreachable: 'The gateway could not be reached. Check the connection and try again.',
    codes: {},
    detail: (message) => message,
    field: (label, details) => `${label} ${details}.`,
    elsewhere: (field, message) => `${field} ${message}`,
  },
  {
    ru: {
      unreachable: 'Не удалось связаться со шлюзом. Проверьте соединение и попробуйте ещё раз.',
      codes: {
        VALIDATION_ERROR: 'Данные не приняты',
        MESSAGES_EDITING_TIME_EXPIRED: 'Время на изменение сообщения истекло',
        CHANNEL_INVALID_TRANSPORT_FOR_EDITING: 'Этот мессенджер не позволяет изменять сообщения',
        CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING: 'Этот мессенджер не позволяет так изменить сообщение',
        MESSAGES_CONTAIN_BUTTONS: 'Сообщение с кнопками нельзя изменить',
        CHANNEL_INVALID_TRANSPORT_FOR_DELETION: 'Этот мессенджер не позволяет удалять сообщения',
        TWO_FACTOR_CODE_INVALID: 'Неверный облачный пароль',
        UNAUTHORIZED: 'Сеанс истёк. Обновите страницу',
        FORBIDDEN: 'Нет доступа',
        TOO_MANY_ENTITIES: 'Слишком много элементов в одном запросе',
        NOT_FOUND: 'Не найдено',
        CHANNEL_NOT_FOUND: 'Канал не найден',
        CHAT_NOT_FOUND: 'Чат не найден',
        MESSAGE_NOT_FOUND: 'Сообщение не найдено',
        TEMPLATE_NOT_FOUND: 'Шаблон не найден',
        CHANNEL_QR_EXPIRED: 'QR-код больше не действует',
        CHANNEL_WRONG_STATUS: 'Канал сейчас не подключён',
        TEMPLATE_NOT_APPROVED: 'Шаблон ещё не одобрен',
        PAYLOAD_TOO_LARGE: 'Слишком большой объём данных',
        TOO_MANY_REQUESTS: 'Слишком много запросов, попробуйте чуть позже',
        UPLOAD_QUOTA_EXCEEDED: 'Исчерпан суточный лимит загрузки файлов',
        INTERNAL_ERROR: 'Внутренняя ошибка шлюза',
        SERVICE_UNAVAILABLE: 'Шлюз временно недоступен, попробуйте чуть позже',
      },
      // The gateway's detail for a field is English: said in Russian where the frames know it, else as it is.
      detail: (message) => (isKnownRefusal(message) ? ruDetails[message] : message),
      field: (label, details) => `${label}: ${details}.`,
      // The gateway's words for inputs the screen does not show are English: said in Russian where known, else left out.
      elsewhere: (field, message) => ruElsewhere[`${field} ${message}`] ?? null,
    },
    // The gateway's details are English; Spanish and Portuguese say the code in their words and keep a field's
    // detail as the gateway wrote it (no table of them yet), and leave out those of inputs the screen does not show.
    es: {
      unreachable: 'No se pudo contactar con la pasarela. Compruebe la conexión e inténtelo de nuevo.',
      codes: {
        VALIDATION_ERROR: 'Datos no aceptados',
        MESSAGES_EDITING_TIME_EXPIRED: 'Se acabó el tiempo para editar el mensaje',
        CHANNEL_INVALID_TRANSPORT_FOR_EDITING: 'Este mensajero no permite editar mensajes',
        CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING: 'Este mensajero no permite editar así el mensaje',
        MESSAGES_CONTAIN_BUTTONS: 'Un mensaje con botones no se puede editar',
        CHANNEL_INVALID_TRANSPORT_FOR_DELETION: 'Este mensajero no permite eliminar mensajes',
        TWO_FACTOR_CODE_INVALID: 'Contraseña de dos pasos incorrecta',
        UNAUTHORIZED: 'La sesión caducó. Recargue la página',
        FORBIDDEN: 'Sin acceso',
        TOO_MANY_ENTITIES: 'Demasiados elementos en una petición',
        NOT_FOUND: 'No encontrado',
        CHANNEL_NOT_FOUND: 'Canal no encontrado',
        CHAT_NOT_FOUND: 'Chat no encontrado',
        MESSAGE_NOT_FOUND: 'Mensaje no encontrado',
        TEMPLATE_NOT_FOUND: 'Plantilla no encontrada',
        CHANNEL_QR_EXPIRED: 'El código QR ya no es válido',
        CHANNEL_WRONG_STATUS: 'El canal no está conectado ahora',
        TEMPLATE_NOT_APPROVED: 'La plantilla aún no está aprobada',
        PAYLOAD_TOO_LARGE: 'Demasiados datos',
        TOO_MANY_REQUESTS: 'Demasiadas peticiones; inténtelo un poco más tarde',
        UPLOAD_QUOTA_EXCEEDED: 'Se agotó el límite diario de subida de archivos',
        INTERNAL_ERROR: 'Error interno de la pasarela',
        SERVICE_UNAVAILABLE: 'La pasarela no está disponible; inténtelo un poco más tarde',
      },
      detail: (message) => message,
      field: (label, details) => `${label}: ${details}.`,
      elsewhere: () => null,
    },
    pt: {
      unreachable: 'Não foi possível contatar o gateway. Verifique a conexão e tente de novo.',
      codes: {
        VALIDATION_ERROR: 'Dados não aceitos',
        MESSAGES_EDITING_TIME_EXPIRED: 'O tempo para editar a mensagem acabou',
        CHANNEL_INVALID_TRANSPORT_FOR_EDITING: 'Este mensageiro não permite editar mensagens',
        CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING: 'Este mensageiro não permite editar a mensagem assim',
        MESSAGES_CONTAIN_BUTTONS: 'Uma mensagem com botões não pode ser editada',
        CHANNEL_INVALID_TRANSPORT_FOR_DELETION: 'Este mensageiro não permite apagar mensagens',
        TWO_FACTOR_CODE_INVALID: 'Senha de duas etapas incorreta',
        UNAUTHORIZED: 'A sessão expirou. Recarregue a página',
        FORBIDDEN: 'Sem acesso',
        TOO_MANY_ENTITIES: 'Itens demais em um pedido',
        NOT_FOUND: 'Não encontrado',
        CHANNEL_NOT_FOUND: 'Canal não encontrado',
        CHAT_NOT_FOUND: 'Chat não encontrado',
        MESSAGE_NOT_FOUND: 'Mensagem não encontrada',
        TEMPLATE_NOT_FOUND: 'Modelo não encontrado',
        CHANNEL_QR_EXPIRED: 'O código QR não é mais válido',
        CHANNEL_WRONG_STATUS: 'O canal não está conectado agora',
        TEMPLATE_NOT_APPROVED: 'O modelo ainda não foi aprovado',
        PAYLOAD_TOO_LARGE: 'Dados demais',
        TOO_MANY_REQUESTS: 'Pedidos demais; tente de novo daqui a pouco',
        UPLOAD_QUOTA_EXCEEDED: 'O limite diário de envio de arquivos acabou',
        INTERNAL_ERROR: 'Erro interno do gateway',
        SERVICE_UNAVAILABLE: 'O gateway está indisponível; tente de novo daqui a pouco',
      },
      detail: (message) => message,
      field: (label, details) => `${label}: ${details}.`,
      elsewhere: () => null,
    },
  },
);

const inputName = (field: string) => field.replace(/^body\./, '').replace(/^credentials\./, '');

/**
 * The gateway's refusal in plain words, in the screen's language. Field messages for inputs on the form go next
 * to them (`labels` names those inputs); any others are added to the message, so nothing the gateway said is lost.
 */
export function refusalOf(err: unknown, labels: Readonly<Record<string, string>> = {}, lang: Lang = 'en'): Refusal {
  const w = words[lang];
  if (!(err instanceof BffError)) return { code: null, message: w.unreachable, fields: {} };
  const details = new Map<string, string[]>();
  const elsewhere: string[] = [];
  for (const f of (err.data?.fields ?? []) as FieldError[]) {
    const name = inputName(f.field);
    if (labels[name] !== undefined) details.set(name, [...(details.get(name) ?? []), w.detail(f.message)]);
    else {
      const said = w.elsewhere(name, f.message);
      if (said) elsewhere.push(said);
    }
  }
  const fields = Object.fromEntries([...details].map(([name, said]) => [name, w.field(labels[name]!, said.join('; '))]));
  const said = w.codes[err.code as ErrorCode] ?? err.message;
  const message = elsewhere.length > 0 ? `${said}: ${elsewhere.join('; ')}.` : said;
  return { code: err.code, message, fields };
}
