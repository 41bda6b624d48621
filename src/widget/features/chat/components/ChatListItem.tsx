import { memo } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import { chatTitle, previewText, shortWhen, transportNames } from './format.ts';

interface Props {
  chat: BffChat;
  selected: boolean;
  onOpen(chat: BffChat): void;
}

/** One row of the chat list: who, through which channel, the last message, when, and how many wait for an answer. */
export const ChatListItem = memo(function ChatListItem({ chat, selected, onOpen }: Props) {
  const last = chat.last_message;
  const unanswered = chat.unanswered_count;
  return (
    <li className="gw-chat-row">
      <button type="button" className="gw-chat-row__button" aria-current={selected ? 'true' : undefined} onClick={() => onOpen(chat)}>
        <span className="gw-chat-row__top">
          <span className="gw-chat-row__name">{chatTitle(chat)}</span>
          <time className="gw-chat-row__time" dateTime={chat.last_activity_at}>
            {shortWhen(chat.last_activity_at)}
          </time>
        </span>
        <span className="gw-chat-row__bottom">
          <span className={`gw-chat-row__preview${last?.deleted ? ' gw-chat-row__preview--deleted' : ''}`}>
            {last?.deleted ? 'Deleted · ' : ''}
            {last ? previewText(last) : <em>No messages yet</em>}
          </span>
          {unanswered > 0 && (
            <span className="gw-badge" aria-label={`${unanswered} unanswered`}>
              {unanswered}
            </span>
          )}
        </span>
        <span className="gw-chat-row__channel">{chat.channel_name ?? transportNames[chat.transport] ?? chat.transport}</span>
      </button>
    </li>
  );
});
