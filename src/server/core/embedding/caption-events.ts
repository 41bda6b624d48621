import type { EventRecord } from '../ports.ts';
import { captionedFileNumber } from '../messages/caption-number.ts';
import type { MessageRepository } from '../messages/ports.ts';

/**
 * `message.add` as frames get it: the words of a file (its caption, recorded after it as a message of its own) name
 * the file (`caption_of`), so that the frame counts and draws the two as one message, as the messenger did. Frames
 * only: a CRM's webhook carries the interface's payload. Only a message of words is looked up; anything else passes
 * as it is.
 */
export async function withCaptionOf(messages: Pick<MessageRepository, 'get' | 'findByMessengerId'>, event: EventRecord): Promise<EventRecord> {
  if (event.name !== 'message.add') return event;
  const payload = event.payload as { message_id?: unknown; text?: unknown; attachment?: unknown };
  if (typeof payload.text !== 'string' || payload.attachment !== undefined || typeof payload.message_id !== 'string') return event;
  const words = await messages.get(event.accountId, payload.message_id);
  const fileNumber = captionedFileNumber(words?.messengerMessageId);
  if (!words || fileNumber === null) return event;
  const file = await messages.findByMessengerId(words.chatRef, fileNumber);
  return file?.attachment ? { ...event, payload: { ...payload, caption_of: file.id } } : event;
}
