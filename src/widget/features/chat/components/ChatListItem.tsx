import { memo } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import { Badge } from '@/components/ui/Badge.tsx';
import { useLang } from '@/lib/i18n.ts';
import { words } from '../words.ts';
import { chatTitle, previewParts, shortWhen } from './format.ts';
import { PaperclipIcon } from './icons.tsx';
import { StatusTicks } from './MessageBubble.tsx';
import { MessengerMark } from './MessengerMark.tsx';

interface Props {
  chat: BffChat;
  selected: boolean;
  onOpen(chat: BffChat): void;
}

/** One row of the chat list: who, through which messenger and channel, the last message, when, and how many wait. */
export const ChatListItem = memo(function ChatListItem({ chat, selected, onOpen }: Props) {
  const lang = useLang();
  const w = words[lang].row;
  const last = chat.last_message;
  const unanswered = chat.unanswered_count;
  const preview = last ? previewParts(last, lang) : null;
  return (
    <li className="gw-chat-row">
      <button
        type="button"
        data-row
        className="gw-chat-row__button grid w-full cursor-pointer gap-0.5 border-b border-line px-3 py-2.5 text-left hover:bg-bg aria-[current=true]:bg-selected"
        aria-current={selected ? 'true' : undefined}
        onClick={() => onOpen(chat)}
      >
        <span className="flex min-w-0 items-center gap-2">
          <span className="gw-chat-row__name flex-1 truncate font-semibold">{chatTitle(chat, lang)}</span>
          <time className="text-xs text-muted" dateTime={chat.last_activity_at}>
            {shortWhen(chat.last_activity_at, lang)}
          </time>
        </span>
        <span className="flex min-w-0 items-center gap-2">
          <span className={`flex-1 truncate text-muted ${last?.deleted ? 'italic' : ''}`}>
            {last?.deleted ? w.deleted : ''}
            {preview ? (
              <>
                {preview.by}
                {preview.file && <PaperclipIcon className="mr-0.5 inline size-3.5 align-[-2px]" />}
                {preview.text}
              </>
            ) : (
              <em>{w.noMessages}</em>
            )}
          </span>
          {last && !last.deleted && last.direction === 'outbound' && last.status === 'failed' && <StatusTicks status="failed" />}
          {unanswered > 0 && <Badge aria-label={w.unanswered(unanswered)}>{unanswered}</Badge>}
        </span>
        <MessengerMark transport={chat.transport} channel={chat.channel_name} />
      </button>
    </li>
  );
});
