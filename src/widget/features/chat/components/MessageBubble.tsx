import { memo, useEffect, useRef, useState } from 'react';
import { Tag } from '@/components/ui/Badge.tsx';
import { IconButton, LinkButton } from '@/components/ui/Button.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import type { MessageActions } from '../store/actions.ts';
import { shownKeyboard } from '../store/keyboard.ts';
import type { ChatMessage } from '../store/message.ts';
import { reasonText, viewWords } from '../view-words.ts';
import { words } from '../words.ts';
import { fullWhen, messageWhen } from './format.ts';
import { CopyIcon, PaperclipIcon, PencilIcon, ReplyIcon, TrashIcon } from './icons.tsx';
import { MessageKeyboard } from './MessageKeyboard.tsx';
import { Attachment } from './Attachment.tsx';
import { Byline } from './Byline.tsx';
import { ForwardButton } from './ForwardButton.tsx';
import { Linkified } from './Linkified.tsx';
import { ReactButton, ReactionChips } from './ReactionBar.tsx';
import { StatusTicks } from './StatusTicks.tsx';

function Quote({ quoted, onJump }: { quoted: NonNullable<ChatMessage['quoted_message']>; onJump(messageId: string): void }) {
  const w = useWords(viewWords).message;
  const file = quoted.text === null && Boolean(quoted.attachment_name);
  const text = quoted.text ?? (file ? quoted.attachment_name : w.earlier);
  return (
    <button
      type="button"
      className="mb-1 flex cursor-pointer flex-col border-0 border-l-[3px] border-solid border-accent bg-transparent px-2 py-0.5 text-left text-[13px] text-muted"
      title={w.toQuoted}
      onClick={() => onJump(quoted.message_id)}
    >
      {quoted.direction && <span className="font-semibold">{quoted.direction === 'outbound' ? w.you : w.contact}</span>}
      <span className="truncate">
        {file && <PaperclipIcon className="mr-0.5 inline size-3.5 align-[-2px]" />}
        {text}
      </span>
      {quoted.deleted && <Tag>{w.quoteDeleted}</Tag>}
    </button>
  );
}

interface BubbleProps {
  message: ChatMessage;
  /** Null while the opened chat's first messages are being drawn: the actions, shown on hover, come after. */
  actions: MessageActions | null;
  onEdit(message: ChatMessage): void;
  onDelete(message: ChatMessage): void;
  onReply(message: ChatMessage): void;
  onJump(messageId: string): void;
  /** Sends a message the messenger did not deliver once more, as a new message. */
  onRetry(message: ChatMessage): void;
}

/** A failed message can be sent again when this frame has all it carried: its words, or a file already uploaded. */
const retryable = (m: ChatMessage) => m.direction === 'outbound' && m.status === 'failed' && !m.deleted && m.template === null && (m.text !== null || Boolean(m.attachment?.url));

/**
 * What the agent can do with a message: reply to it, copy it and forward it (any message), edit and delete (their side's,
 * where the messenger allows). Deleting asks once more, in place; Escape keeps the message.
 */
function Actions({ message, actions, onEdit, onDelete, onReply }: BubbleProps & { actions: MessageActions }) {
  const w = useWords(viewWords).message;
  const [confirming, setConfirming] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const trash = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirm.current?.focus();
  }, [confirming]);
  const keep = () => {
    setConfirming(false);
    requestAnimationFrame(() => trash.current?.focus());
  };
  const side = message.direction === 'outbound' ? 'right-full mr-1' : 'left-full ml-1';
  if (confirming)
    return (
      <span
        className="mt-0.5 flex items-center gap-1.5 self-end text-xs"
        role="group"
        aria-label={w.confirmLabel}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            keep();
          }
        }}
      >
        {w.confirm}
        <LinkButton ref={confirm} className="text-danger" onClick={() => (setConfirming(false), onDelete(message))}>
          {w.delete}
        </LinkButton>
        <LinkButton onClick={keep}>{w.keep}</LinkButton>
      </span>
    );
  const copyable = message.text ?? message.template?.text ?? null;
  if (!message.message_id) return null;
  return (
    <span
      className={`gw-bubble__actions absolute top-1/2 flex -translate-y-1/2 items-center gap-0.5 opacity-0 group-hover:opacity-100 focus-within:opacity-100 [@media(hover:none)]:opacity-100 ${side}`}
    >
      <IconButton aria-label={w.replyLabel} title={w.reply} onClick={() => onReply(message)}>
        <ReplyIcon />
      </IconButton>
      {copyable !== null && (
        <IconButton aria-label={w.copyLabel} title={w.copy} onClick={() => void navigator.clipboard?.writeText(copyable).catch(() => {})}>
          <CopyIcon />
        </IconButton>
      )}
      <ForwardButton message={message} />
      {actions.react && <ReactButton message={message} />}
      {actions.edit && (
        <IconButton aria-label={w.editLabel} title={w.edit} onClick={() => onEdit(message)}>
          <PencilIcon />
        </IconButton>
      )}
      {actions.delete && (
        <IconButton ref={trash} aria-label={w.deleteLabel} title={w.delete} onClick={() => setConfirming(true)}>
          <TrashIcon />
        </IconButton>
      )}
    </span>
  );
}

/** One message: inbound on the left, outbound on the right with its status; a deleted one keeps its text, marked. */
export const MessageBubble = memo(function MessageBubble(props: BubbleProps) {
  const { message: m } = props;
  const lang = useLang();
  const w = viewWords[lang].message;
  const text = m.text ?? m.template?.text ?? null;
  const keyboard = shownKeyboard(m.keyboard);
  const tone = m.direction === 'outbound' ? 'bg-out' : 'bg-in';
  return (
    <div
      className={`gw-bubble relative flex max-w-[min(75%,560px)] flex-col rounded-[10px] px-2.5 py-1.5 shadow-xs [overflow-wrap:anywhere] max-xs:max-w-[85%] ${tone} ${m.status === 'failed' ? 'ring-1 ring-danger' : ''}`}
    >
      <Byline message={m} />
      {m.quoted_message && <Quote quoted={m.quoted_message} onJump={props.onJump} />}
      {m.direction === 'outbound' && m.author?.name && (
        <span className="text-xs font-semibold text-muted" aria-hidden="true">
          {m.author.name}
        </span>
      )}
      {m.attachment && <Attachment attachment={m.attachment} />}
      {text !== null && (
        <p className={`m-0 whitespace-pre-wrap ${m.deleted ? 'text-muted line-through' : ''}`}>
          <Linkified text={text} />
        </p>
      )}
      {m.template && text === null && <p className="m-0 text-muted italic">{w.template}</p>}
      {keyboard && <MessageKeyboard keyboard={keyboard} />}
      <ReactionChips message={m} canReact={Boolean(props.actions?.react)} />
      <span className="flex items-center gap-1.5 self-end text-[11px] text-muted">
        {m.template && !m.deleted && <Tag>{words[lang].chat.template}</Tag>}
        {m.deleted && <Tag tone="danger">{w.deleted}</Tag>}
        {m.edited_at && !m.deleted && <span className="italic">{w.edited}</span>}
        <time dateTime={m.created_at} title={fullWhen(m.created_at, lang)}>
          {messageWhen(m.created_at, lang)}
        </time>
        {m.direction === 'outbound' && <StatusTicks status={m.status} />}
      </span>
      {props.actions && <Actions {...props} actions={props.actions} />}
      {m.status === 'accepted' && m.held && new Date(m.held.until) > new Date() && (
        <span className="text-xs text-muted" data-testid="held">
          {w.held(w.holds[m.held.reason] ?? m.held.reason.replaceAll('_', ' '), messageWhen(m.held.until, lang))}
        </span>
      )}
      {m.status === 'failed' && (
        <span className="flex flex-wrap items-baseline gap-x-2 text-xs text-danger">
          {w.failed(m.reason ? reasonText(viewWords[lang], m.reason) : null)}
          {retryable(m) && <LinkButton onClick={() => props.onRetry(m)}>{w.retry}</LinkButton>}
        </span>
      )}
    </div>
  );
});
