import { useEffect, useId, useRef, useState } from 'react';
import type { BffChannel } from '../../../../contract/session.ts';
import { useLang } from '../../../lib/i18n.ts';
import { refusalOf } from '../../../lib/refusal.ts';
import { channelIdentity, describeStatus, transportName } from '../store/words.ts';
import { listWords } from './list-words.ts';

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
  const lang = useLang();
  const w = listWords[lang];
  const status = describeStatus(channel, lang);
  const name = transportName(channel.transport, lang);
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
      setError(refusalOf(err, {}, lang).message);
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
              {w.continue}
            </button>
          )}
          {channel.status === 'disabled' && (
            <button type="button" className="gw-connect-button gw-connect-button--small" onClick={() => onReconnect(channel)}>
              {w.reconnect}
            </button>
          )}
          <button ref={deleteButton} type="button" className="gw-connect-button gw-connect-button--small gw-connect-button--quiet" onClick={() => setConfirming(true)}>
            {w.delete}
          </button>
        </div>
      )}
      {confirming && (
        <div className="gw-channel__confirm" role="group" aria-labelledby={`${id}-question`}>
          <p className="gw-channel__question" id={`${id}-question`}>
            {w.deleteQuestion(name)}
          </p>
          <label className="gw-connect-check">
            <input ref={firstInConfirm} type="checkbox" checked={deleteChats} onChange={(e) => setDeleteChats(e.target.checked)} />
            <span>
              {w.deleteChats}
              <span className="gw-connect-check__hint">{w.deleteChatsHint}</span>
            </span>
          </label>
          <div className="gw-connect-actions">
            <button type="button" className="gw-connect-button gw-connect-button--danger gw-connect-button--small" onClick={confirm} disabled={busy}>
              {busy ? w.deleting : w.deleteChannel}
            </button>
            <button type="button" className="gw-connect-button gw-connect-button--small" onClick={cancel} disabled={busy}>
              {w.cancel}
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
