import type { TransportCapabilities } from '../../../../contract/channels.ts';
import type { ChatMessage } from './message.ts';

/** What the agent may do to a message, as its channel's transport allows (the gateway decides in the end). */
export interface MessageActions {
  edit: boolean;
  delete: boolean;
}

// Shared answers, so a row whose actions did not change keeps the same props.
const answers = [false, true].map((edit) => [false, true].map((del): MessageActions => ({ edit, delete: del })));
const answer = (edit: boolean, del: boolean) => answers[Number(edit)]![Number(del)]!;
const none = answer(false, false);

export function messageActions(m: ChatMessage, caps: TransportCapabilities | undefined, now: number): MessageActions {
  if (!caps || m.direction !== 'outbound' || !m.message_id || m.deleted || m.status === 'sending' || m.status === 'failed') return none;
  const edit = caps.edit;
  const editable =
    edit !== null &&
    m.text !== null &&
    (!edit.text_only || m.attachment === null) &&
    (!edit.not_with_keyboard || m.keyboard === null) &&
    // The window runs from delivery; the creation time is the earliest it can have started.
    now - Date.parse(m.created_at) < edit.window_seconds * 1000;
  return answer(editable, caps.delete);
}
