import { memo } from 'react';
import type { ChatMessage, ShownStatus } from '../store/message.ts';
import { fullWhen, messageWhen } from './format.ts';

const statusLabels: Record<ShownStatus, string> = {
  sending: 'Sending',
  accepted: 'Accepted by the gateway',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Not delivered',
};
const ticks: Record<ShownStatus, string> = { sending: '🕓', accepted: '🕓', sent: '✓', delivered: '✓✓', read: '✓✓', failed: '!' };

export function StatusTicks({ status }: { status: ShownStatus }) {
  return (
    <span className={`gw-ticks gw-ticks--${status}`} role="img" aria-label={statusLabels[status]} title={statusLabels[status]}>
      {ticks[status]}
    </span>
  );
}

function Quote({ quoted }: { quoted: NonNullable<ChatMessage['quoted_message']> }) {
  const text = quoted.text ?? (quoted.attachment_name ? `📎 ${quoted.attachment_name}` : 'Earlier message');
  return (
    <blockquote className="gw-bubble__quote">
      {quoted.direction && <span className="gw-bubble__quote-who">{quoted.direction === 'outbound' ? 'You' : 'Contact'}</span>}
      <span className="gw-bubble__quote-text">{text}</span>
      {quoted.deleted && <span className="gw-tag">deleted</span>}
    </blockquote>
  );
}

/** One message: inbound on the left, outbound on the right with its status; a deleted one keeps its text, marked. */
export const MessageBubble = memo(function MessageBubble({ message: m }: { message: ChatMessage }) {
  const text = m.text ?? m.template?.text ?? null;
  const classes = ['gw-bubble', `gw-bubble--${m.direction}`, m.deleted ? 'gw-bubble--deleted' : '', m.status === 'failed' ? 'gw-bubble--failed' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes}>
      {m.quoted_message && <Quote quoted={m.quoted_message} />}
      {m.direction === 'outbound' && m.author?.name && <span className="gw-bubble__author">{m.author.name}</span>}
      {text !== null && <p className="gw-bubble__text">{text}</p>}
      {m.template && text === null && <p className="gw-bubble__text gw-bubble__text--muted">Template message</p>}
      {m.attachment && (
        <a className="gw-bubble__file" href={m.attachment.url} target="_blank" rel="noreferrer noopener">
          📎 {m.attachment.name ?? 'Attachment'}
        </a>
      )}
      <span className="gw-bubble__meta">
        {m.deleted && <span className="gw-tag gw-tag--deleted">Deleted</span>}
        {m.edited_at && !m.deleted && <span className="gw-bubble__edited">edited</span>}
        <time dateTime={m.created_at} title={fullWhen(m.created_at)}>
          {messageWhen(m.created_at)}
        </time>
        {m.direction === 'outbound' && <StatusTicks status={m.status} />}
      </span>
      {m.status === 'failed' && (
        <span className="gw-bubble__failure">Not delivered{m.reason ? `: ${m.reason.replaceAll('_', ' ')}` : ''}</span>
      )}
    </div>
  );
});
