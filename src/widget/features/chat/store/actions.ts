import type { TransportCapabilities } from '../../../../contract/channels.ts';
import type { ChatMessage } from './message.ts';

/** What the agent may do to a message, as its channel's transport allows (the gateway decides in the end). */
export interface MessageActions {
  edit: boolean;
  delete: boolean;
  /** Reacting with an emoji (either side's message, once the messenger has it). */
  react: boolean;
}

// Shared answers, so a row whose actions did not change keeps the same props.
const flags = [false, true];
const answers = flags.map((edit) => flags.map((del) => flags.map((react): MessageActions => ({ edit, delete: del, react }))));
const answer = (edit: boolean, del: boolean, react = false) => answers[Number(edit)]![Number(del)]![Number(react)]!;
const none = answer(false, false);

export function messageActions(m: ChatMessage, caps: TransportCapabilities | undefined, now: number): MessageActions {
  const react = Boolean(caps?.reactions) && Boolean(m.message_id) && !m.deleted && m.status !== 'sending' && m.status !== 'failed';
  if (!caps || m.direction !== 'outbound' || !m.message_id || m.deleted || m.status === 'sending' || m.status === 'failed') return react ? answer(false, false, true) : none;
  const edit = caps.edit;
  const editable =
    edit !== null &&
    m.text !== null &&
    // A caption drawn with its file is a message of its own: the bubble is the file's.
    m.caption_id === undefined &&
    (!edit.text_only || m.attachment === null) &&
    (!edit.not_with_keyboard || m.keyboard === null) &&
    // The window runs from delivery; the creation time is the earliest it can have started.
    now - Date.parse(m.created_at) < edit.window_seconds * 1000;
  return answer(editable, caps.delete, react);
}
