import { memo, useRef } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import { Badge } from '@/components/ui/Badge.tsx';
import { useLang } from '@/lib/i18n.ts';
import { notifyWords } from '../notify-words.ts';
import { words } from '../words.ts';
import { ChatRowMenu } from './ChatRowMenu.tsx';
import { chatTitle, previewParts } from './format.ts';
import { PaperclipIcon } from './icons.tsx';
import { StatusTicks } from './StatusTicks.tsx';
import { MessengerMark } from './MessengerMark.tsx';
import { RowHeading } from './RowHeading.tsx';

interface Props {
  chat: BffChat;
  selected: boolean;
  /** Messages come in since the agent last looked at the chat (the list reads the counts once for all its rows). */
  unread: number;
  onOpen(chat: BffChat): void;
}

/** The contact's initials in a circle, where a messenger would show their picture (the name is said beside it). */
function Initials({ name }: { name: string }) {
  // Words that start with a letter: a number or a handle's digits say little in a circle this small.
  const letters = name
    .split(/[\s@+]+/u)
    .filter((word) => /^\p{L}/u.test(word))
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase())
    .join('');
  return (
    <span className="mt-0.5 grid size-9 flex-none place-items-center rounded-full bg-selected text-[13px] font-semibold text-accent" aria-hidden="true">
      {letters || '?'}
    </span>
  );
}

/**
 * One row of the chat list: who, through which messenger and channel, the last message, when, and how many wait;
 * a waiting chat's row also has its "⋯" menu, beside the row's button (a button holds no other).
 */
export const ChatListItem = memo(function ChatListItem({ chat, selected, unread, onOpen }: Props) {
  const lang = useLang();
  const w = words[lang].row;
  const last = chat.last_message;
  const unanswered = chat.unanswered_count;
  const preview = last ? previewParts(last, lang) : null;
  const title = chatTitle(chat, lang);
  const button = useRef<HTMLButtonElement>(null);
  const menu = unanswered > 0;
  return (
    <li className="gw-chat-row relative">
      <button
        ref={button}
        type="button"
        data-row
        className="gw-chat-row__button flex w-full cursor-pointer items-start gap-2.5 border-b border-line px-3 py-2.5 text-left hover:bg-bg aria-[current=true]:bg-selected"
        aria-current={selected ? 'true' : undefined}
        onClick={() => onOpen(chat)}
      >
        <Initials name={title} />
        <span className="grid min-w-0 flex-1 gap-0.5">
          <RowHeading title={title} at={chat.last_activity_at} lang={lang} titleClass="gw-chat-row__name" />
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
            {unread > 0 && (
              <Badge className="gw-unread bg-text! text-panel!" aria-label={notifyWords[lang].unread(unread)}>
                {unread}
              </Badge>
            )}
            {unanswered > 0 && <Badge aria-label={w.unanswered(unanswered)}>{unanswered}</Badge>}
          </span>
          <span className={`flex min-w-0 ${menu ? 'pr-8' : ''}`}>
            <MessengerMark transport={chat.transport} channel={chat.channel_name} />
          </span>
        </span>
      </button>
      {menu && <ChatRowMenu chatRef={chat.chat_ref} title={title} row={button} />}
    </li>
  );
});
