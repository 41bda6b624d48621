import type { Attachment, Keyboard } from '../../../contract/messages.ts';
import { variablesOf } from '../../../contract/template-text.ts';
import type { TemplateComponent } from '../../../contract/templates.ts';
import { typeByName } from '../bot-common.ts';

/**
 * The body of `POST /{phone_number_id}/messages` for one send, as the Cloud API documents it ("Messages"):
 * `messaging_product: whatsapp`, the customer's number in `to`, a quote as `context.message_id`, and one of a `text`
 * (its `body`), a file by its `link` (`image`, `video`, `audio`, `document` with a `filename`; but for audio, with the
 * send's words as its `caption`), a `template` (its
 * `name`, `language.code`, and `components` with the `parameters` of its header and body, and a `button` component
 * per quick-reply button bound to a payload: `sub_type: quick_reply`, `index`, a `payload` parameter), or an
 * `interactive` message with reply buttons or a list.
 */

/** Meta takes at most 3 reply buttons on a message (documented); more go as a list, of at most 10 rows (documented). */
export const REPLY_BUTTONS = 3;
/** The words of an interactive message: at most 1024 characters (documented), where a text may have 4096. */
export const INTERACTIVE_BODY_CHARS = 1024;
/** A list's rows: an id of at most 200 characters, a title of 24 (documented); a reply button's id 256, title 20. */
const LIST_ROW_ID_CHARS = 200;
const REPLY_ID_CHARS = 256;
/** The label of the button that opens a list (at most 20 characters, documented): the interface gives none. */
export const LIST_BUTTON_LABEL = '☰';

export type MediaKind = 'image' | 'video' | 'audio' | 'document';

const typesByExtension: ReadonlyMap<string, string> = new Map([
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['mp4', 'video/mp4'],
  ['3gp', 'video/3gpp'],
  ['aac', 'audio/aac'],
  ['amr', 'audio/amr'],
  ['mp3', 'audio/mpeg'],
  ['m4a', 'audio/mp4'],
  ['ogg', 'audio/ogg'],
]);

const lastSegment = (url: string): string | null => {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '') || null;
  } catch {
    return null;
  }
};

/**
 * How Meta is told to show a file a send names by its URL: by its type as the send gives it, else as its name or its
 * address says. Meta shows JPEG and PNG as pictures, MP4 and 3GPP as videos, and AAC, AMR, MP3, M4A and OGG (Opus) as
 * sounds (its supported media types); anything else (a PDF, a spreadsheet, a WebP, which Meta takes only as a
 * sticker) goes as a document, under its name.
 */
export function mediaKindOf(attachment: Pick<Attachment, 'url' | 'name' | 'mimetype'>): MediaKind {
  const type = (attachment.mimetype ?? typeByName(attachment.name ?? lastSegment(attachment.url), typesByExtension) ?? '').toLowerCase();
  if (/^image\/(jpeg|png)$/.test(type)) return 'image';
  if (/^video\/(mp4|3gpp)$/.test(type)) return 'video';
  if (/^audio\/(aac|amr|mpeg|mp4|ogg)$/.test(type)) return 'audio';
  return 'document';
}

const cut = (text: string, chars: number) => [...text].slice(0, chars).join('');

/**
 * A text with the business keyboard (the interface's up to 10 buttons, each `{text?, payload}`): up to 3 as reply
 * buttons, under the text; 4 to 10 as a list of one section, opened by a button (LIST_BUTTON_LABEL), each button a
 * row. A button's id is its payload, so that a press names it; its title its text (the payload where it has none,
 * cut to Meta's length). What the keyboard rules let through (20 characters of text) fits both.
 */
export function interactiveOf(text: string, keyboard: Keyboard): Record<string, unknown> {
  const buttons = (keyboard.buttons as { text?: string; payload?: string }[]).map((b) => ({ id: b.payload ?? b.text ?? '', title: b.text ?? b.payload ?? '' }));
  if (buttons.length <= REPLY_BUTTONS) {
    return {
      type: 'button',
      body: { text },
      action: { buttons: buttons.map((b) => ({ type: 'reply', reply: { id: cut(b.id, REPLY_ID_CHARS), title: cut(b.title, 20) } })) },
    };
  }
  return {
    type: 'list',
    body: { text },
    action: { button: LIST_BUTTON_LABEL, sections: [{ rows: buttons.map((b) => ({ id: cut(b.id, LIST_ROW_ID_CHARS), title: cut(b.title, 24) })) }] },
  };
}

/** A stored template as Meta is asked to send it: its name and language, the values of its variables, the payloads of its quick replies. */
export interface TemplateToSend {
  name: string;
  language: string;
  components: TemplateComponent[];
  values: readonly string[];
  payloads: readonly string[];
}

/**
 * The template's components as a send gives them: the header's and the body's parameters, each the value of its
 * variable (the gateway numbers a template's variables across header and body, `{{1}}`… in order, as the interface
 * gives `values`; Meta numbers them per component, so each part takes the values of its own variables, in order),
 * and one `button` component per payload, bound to the template's quick-reply buttons in order (its `index` the
 * button's place among all the template's buttons).
 */
export function templateComponentsOf(template: TemplateToSend): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = [];
  for (const type of ['header', 'body'] as const) {
    const text = template.components.find((c) => c.type === type)?.text;
    const numbers = text ? variablesOf(text).sort((a, b) => a - b) : [];
    if (numbers.length > 0) parts.push({ type, parameters: numbers.map((n) => ({ type: 'text', text: template.values[n - 1] ?? '' })) });
  }
  const buttons = template.components.find((c) => c.type === 'buttons')?.buttons ?? [];
  const quickReplies = buttons.flatMap((b, index) => (b.type === 'quick_reply' ? [index] : []));
  template.payloads.forEach((payload, i) => {
    const index = quickReplies[i];
    if (index !== undefined) parts.push({ type: 'button', sub_type: 'quick_reply', index: String(index), parameters: [{ type: 'payload', payload }] });
  });
  return parts;
}

/** What one send asks Meta for, less the recipient and the quote. */
export function contentOf(send: { text: string | null; attachment: Attachment | null; keyboard: Keyboard | null; template: TemplateToSend | null }): Record<string, unknown> {
  if (send.template) {
    const components = templateComponentsOf(send.template);
    // `deterministic` is the only language policy Meta has, and its published schema requires it.
    return { type: 'template', template: { name: send.template.name, language: { policy: 'deterministic', code: send.template.language }, ...(components.length > 0 ? { components } : {}) } };
  }
  if (send.attachment) {
    const kind = mediaKindOf(send.attachment);
    const name = send.attachment.name ?? lastSegment(send.attachment.url);
    // The words of a file are its caption, which Meta shows under an image, a video or a document (audio has none).
    const caption = send.text && kind !== 'audio' ? { caption: send.text } : {};
    return { type: kind, [kind]: { link: send.attachment.url, ...(kind === 'document' && name ? { filename: name } : {}), ...caption } };
  }
  const text = send.text ?? '';
  if (send.keyboard && send.keyboard.buttons.length > 0) return { type: 'interactive', interactive: interactiveOf(text, send.keyboard) };
  return { type: 'text', text: { body: text, preview_url: false } };
}
