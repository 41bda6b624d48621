import { memo, useState } from 'react';
import { useLang, useWords } from '../../../lib/i18n.ts';
import type { MessageActions } from '../store/actions.ts';
import { shownKeyboard } from '../store/keyboard.ts';
import type { ChatMessage, ShownStatus } from '../store/message.ts';
import { reasonText, words } from '../words.ts';
import { fullWhen, messageWhen } from './format.ts';
import { MessageKeyboard } from './MessageKeyboard.tsx';
import { ClockIcon, PaperclipIcon, PencilIcon, TrashIcon } from './icons.tsx';

const ticks: Record<ShownStatus, string | null> = { sending: null, accepted: null, sent: '✓', delivered: '✓✓', read: '✓✓', failed: '!' };

export function StatusTicks({ status }: { status: ShownStatus }) {
  const label = useWords(words).message.status[status];
  return (
    <span className={`gw-ticks gw-ticks--${status}`} role="img" aria-label={label} title={label}>
      {ticks[status] ?? <ClockIcon />}
    </span>
  );
}

function Quote({ quoted }: { quoted: NonNullable<ChatMessage['quoted_message']> }) {
  const w = useWords(words).message;
  const file = quoted.text === null && Boolean(quoted.attachment_name);
  const text = quoted.text ?? (file ? quoted.attachment_name : w.earlier);
  return (
    <blockquote className="gw-bubble__quote">
      {quoted.direction && <span className="gw-bubble__quote-who">{quoted.direction === 'outbound' ? w.you : w.contact}</span>}
      <span className="gw-bubble__quote-text">
        {file && <PaperclipIcon />}
        {text}
      </span>
      {quoted.deleted && <span className="gw-tag">{w.quoteDeleted}</span>}
    </blockquote>
  );
}

interface BubbleProps {
  message: ChatMessage;
  actions: MessageActions;
  onEdit(message: ChatMessage): void;
  onDelete(message: ChatMessage): void;
}

/** Edit and delete, where the messenger allows them; deleting asks once more, in place. */
function Actions({ message, actions, onEdit, onDelete }: BubbleProps) {
  const w = useWords(words).message;
  const [confirming, setConfirming] = useState(false);
  if (!actions.edit && !actions.delete) return null;
  if (confirming)
    return (
      <span className="gw-bubble__confirm" role="group" aria-label={w.confirmLabel}>
        {w.confirm}
        <button type="button" className="gw-link-button gw-error" onClick={() => (setConfirming(false), onDelete(message))}>
          {w.delete}
        </button>
        <button type="button" className="gw-link-button" onClick={() => setConfirming(false)}>
          {w.keep}
        </button>
      </span>
    );
  return (
    <span className="gw-bubble__actions">
      {actions.edit && (
        <button type="button" className="gw-icon-button" aria-label={w.editLabel} title={w.edit} onClick={() => onEdit(message)}>
          <PencilIcon />
        </button>
      )}
      {actions.delete && (
        <button type="button" className="gw-icon-button" aria-label={w.deleteLabel} title={w.delete} onClick={() => setConfirming(true)}>
          <TrashIcon />
        </button>
      )}
    </span>
  );
}

/** One message: inbound on the left, outbound on the right with its status; a deleted one keeps its text, marked. */
export const MessageBubble = memo(function MessageBubble(props: BubbleProps) {
  const { message: m } = props;
  const lang = useLang();
  const w = words[lang].message;
  const text = m.text ?? m.template?.text ?? null;
  const keyboard = shownKeyboard(m.keyboard);
  const classes = ['gw-bubble', `gw-bubble--${m.direction}`, m.deleted ? 'gw-bubble--deleted' : '', m.status === 'failed' ? 'gw-bubble--failed' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes}>
      {m.quoted_message && <Quote quoted={m.quoted_message} />}
      {m.direction === 'outbound' && m.author?.name && <span className="gw-bubble__author">{m.author.name}</span>}
      {text !== null && <p className="gw-bubble__text">{text}</p>}
      {m.template && text === null && <p className="gw-bubble__text gw-bubble__text--muted">{w.template}</p>}
      {m.attachment &&
        // A file still uploading has no address yet: its name alone.
        (m.attachment.url ? (
          <a className="gw-bubble__file" href={m.attachment.url} target="_blank" rel="noreferrer noopener">
            <PaperclipIcon /> {m.attachment.name ?? words[lang].chat.attachment}
          </a>
        ) : (
          <span className="gw-bubble__file gw-bubble__file--uploading">
            <PaperclipIcon /> {m.attachment.name ?? words[lang].chat.attachment}
          </span>
        ))}
      {keyboard && <MessageKeyboard keyboard={keyboard} />}
      <span className="gw-bubble__meta">
        {m.template && !m.deleted && <span className="gw-tag">{words[lang].chat.template}</span>}
        {m.deleted && <span className="gw-tag gw-tag--deleted">{w.deleted}</span>}
        {m.edited_at && !m.deleted && <span className="gw-bubble__edited">{w.edited}</span>}
        <time dateTime={m.created_at} title={fullWhen(m.created_at, lang)}>
          {messageWhen(m.created_at, lang)}
        </time>
        {m.direction === 'outbound' && <StatusTicks status={m.status} />}
      </span>
      <Actions {...props} />
      {m.status === 'failed' && (
        <span className="gw-bubble__failure">{w.failed(m.reason ? reasonText(words[lang], m.reason) : null)}</span>
      )}
    </div>
  );
});
