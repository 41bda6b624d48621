import { useEffect, useId, useRef, useState } from 'react';
import type { BffChannel } from '../../../../contract/session.ts';
import { refusalOf } from '../../../lib/refusal.ts';
import { channelIdentity, describeStatus, transportNames } from '../store/words.ts';

interface Props {
  channel: BffChannel;
  current: boolean;
  onOpen(channel: BffChannel): void;
  onReconnect(channel: BffChannel): void;
  /** Throws the gateway's refusal. */
  onDelete(channelId: string, deleteChats: boolean): Promise<void>;
}

/** One channel: who it is, its status in words, and what can be done with it (delete asks first). */
export function ChannelRow({ channel, current, onOpen, onReconnect, onDelete }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [deleteChats, setDeleteChats] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const firstInConfirm = useRef<HTMLInputElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const status = describeStatus(channel);
  const name = transportNames[channel.transport];
  const identity = channelIdentity(channel);

  useEffect(() => {
    if (confirming) firstInConfirm.current?.focus();
  }, [confirming]);

  const cancel = () => {
    setConfirming(false);
    setDeleteChats(false);
    setTimeout(() => deleteButton.current?.focus());
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onDelete(channel.channel_id, deleteChats);
    } catch (err) {
      setError(refusalOf(err).message);
      setBusy(false);
    }
  };

  return (
    <li className={`gw-channel${current ? ' gw-channel--current' : ''}`} aria-labelledby={`${id}-name`} aria-current={current || undefined}>
      <div className="gw-channel__who">
        <span className="gw-channel__name" id={`${id}-name`}>
          {name}
          {identity && <span className="gw-channel__identity">{identity}</span>}
        </span>
        <span className={`gw-channel__status gw-channel__status--${status.tone}`}>{status.text}</span>
      </div>
      {!confirming && (
        <div className="gw-channel__actions">
          {channel.status === 'init' && !current && (
            <button type="button" className="gw-connect-button gw-connect-button--small" onClick={() => onOpen(channel)}>
              Continue
            </button>
          )}
          {channel.status === 'disabled' && (
            <button type="button" className="gw-connect-button gw-connect-button--small" onClick={() => onReconnect(channel)}>
              Reconnect
            </button>
          )}
          <button ref={deleteButton} type="button" className="gw-connect-button gw-connect-button--small gw-connect-button--quiet" onClick={() => setConfirming(true)}>
            Delete
          </button>
        </div>
      )}
      {confirming && (
        <div className="gw-channel__confirm" role="group" aria-labelledby={`${id}-question`}>
          <p className="gw-channel__question" id={`${id}-question`}>
            Delete this {name} channel?
          </p>
          <label className="gw-connect-check">
            <input ref={firstInConfirm} type="checkbox" checked={deleteChats} onChange={(e) => setDeleteChats(e.target.checked)} />
            <span>
              Also delete its chats and messages
              <span className="gw-connect-check__hint">Otherwise they stay for history and export.</span>
            </span>
          </label>
          <div className="gw-connect-actions">
            <button type="button" className="gw-connect-button gw-connect-button--danger gw-connect-button--small" onClick={confirm} disabled={busy}>
              {busy ? 'Deleting…' : 'Delete channel'}
            </button>
            <button type="button" className="gw-connect-button gw-connect-button--small" onClick={cancel} disabled={busy}>
              Cancel
            </button>
          </div>
          {error && (
            <p className="gw-connect-alert" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </li>
  );
}
