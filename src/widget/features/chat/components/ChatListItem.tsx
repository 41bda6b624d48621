import { memo } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import { useLang } from '../../../lib/i18n.ts';
import { words } from '../words.ts';
import { chatTitle, previewParts, shortWhen, transportName } from './format.ts';
import { PaperclipIcon } from './icons.tsx';

interface Props {
  chat: BffChat;
  selected: boolean;
  onOpen(chat: BffChat): void;
}

/** One row of the chat list: who, through which channel, the last message, when, and how many wait for an answer. */
export const ChatListItem = memo(function ChatListItem({ chat, selected, onOpen }: Props) {
  const lang = useLang();
  const w = words[lang].row;
  const last = chat.last_message;
  const unanswered = chat.unanswered_count;
  const preview = last ? previewParts(last, lang) : null;
  return (
    <li className="gw-chat-row">
      <button type="button" className="gw-chat-row__button" aria-current={selected ? 'true' : undefined} onClick={() => onOpen(chat)}>
        <span className="gw-chat-row__top">
          <span className="gw-chat-row__name">{chatTitle(chat, lang)}</span>
          <time className="gw-chat-row__time" dateTime={chat.last_activity_at}>
            {shortWhen(chat.last_activity_at, lang)}
          </time>
        </span>
        <span className="gw-chat-row__bottom">
          <span className={`gw-chat-row__preview${last?.deleted ? ' gw-chat-row__preview--deleted' : ''}`}>
            {last?.deleted ? w.deleted : ''}
            {preview ? (
              <>
                {preview.by}
                {preview.file && <PaperclipIcon />}
                {preview.text}
              </>
            ) : (
              <em>{w.noMessages}</em>
            )}
          </span>
          {unanswered > 0 && (
            <span className="gw-badge" aria-label={w.unanswered(unanswered)}>
              {unanswered}
            </span>
          )}
        </span>
        <span className="gw-chat-row__channel">{chat.channel_name ?? transportName(chat.transport, lang)}</span>
      </button>
    </li>
  );
});
