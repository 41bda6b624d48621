import { useEffect, useId, useRef, useState } from 'react';
import type { BffChannel } from '../../../../contract/session.ts';
import { useLang } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { channelIdentity, describeStatus, transportName } from '../store/words.ts';
import { listWords } from './list-words.ts';
import { buttonClass } from '@/components/ui/Button.tsx';
import { PacingSettings } from './PacingSettings.tsx';
import { pacingWords } from './pacing-words.ts';

interface Props {
  channel: BffChannel;
  current: boolean;
  onOpen(channel: BffChannel): void;
  onReconnect(channel: BffChannel): void;
  /** Throws the gateway's refusal. */
  onDelete(channelId: string, deleteChats: boolean): Promise<void>;
}

/** A status's colours: connected, on its way, off. */
const tones: Record<string, string> = { ok: 'bg-ok-bg text-ok', progress: 'bg-progress-bg text-progress', off: 'bg-danger-bg text-danger' };

/** One channel: who it is, its status in words, and what can be done with it (delete asks first). */
export function ChannelRow({ channel, current, onOpen, onReconnect, onDelete }: Props) {
  const [confirming, setConfirming] = useState(false);
  /** A personal number's sending pace, open under the row. */
  const [pacing, setPacing] = useState(false);
  const paced = channel.transport === 'whatsapp' || channel.transport === 'tgapi';
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
    <li
      className={`flex flex-wrap items-center justify-between gap-x-3 gap-y-2 rounded-[10px] border px-3 py-2.5 ${current ? 'border-accent bg-selected' : 'border-line'}`} aria-labelledby={`${id}-name`} aria-current={current || undefined}>
      <div className="grid min-w-0 flex-[1_1_180px] gap-1">
        <span className="font-semibold [overflow-wrap:anywhere]" id={`${id}-name`}>
          {name}
          {identity && <span className="block font-normal text-muted">{identity}</span>}
        </span>
        <span className={`justify-self-start rounded-[9px] px-2 py-px text-xs font-semibold ${tones[status.tone]}`}>{status.text}</span>
      </div>
      {!confirming && (
        <div className="flex flex-wrap gap-1.5">
          {channel.status === 'init' && !current && (
            <button type="button" className={buttonClass('plain', 'small')} onClick={() => onOpen(channel)}>
              {w.continue}
            </button>
          )}
          {channel.status === 'disabled' && (
            <button type="button" className={buttonClass('plain', 'small')} onClick={() => onReconnect(channel)}>
              {w.reconnect}
            </button>
          )}
          {paced && channel.status === 'active' && (
            <button type="button" className={buttonClass('plain', 'small')} aria-expanded={pacing} onClick={() => setPacing((open) => !open)}>
              {pacingWords[lang].open}
            </button>
          )}
          <button ref={deleteButton} type="button" className={buttonClass('quiet', 'small')} onClick={() => setConfirming(true)}>
            {w.delete}
          </button>
        </div>
      )}
      {pacing && !confirming && <PacingSettings channelId={channel.channel_id} onClose={() => setPacing(false)} />}
      {confirming && (
        <div className="grid flex-[1_1_100%] gap-2.5 border-t border-line pt-2" role="group" aria-labelledby={`${id}-question`}>
          <p className="m-0 font-semibold" id={`${id}-question`}>
            {w.deleteQuestion(name)}
          </p>
          <label className="flex cursor-pointer items-start gap-2 [&_input]:mt-[3px]">
            <input ref={firstInConfirm} type="checkbox" checked={deleteChats} onChange={(e) => setDeleteChats(e.target.checked)} />
            <span>
              {w.deleteChats}
              <span className="block text-[13px] text-muted">{w.deleteChatsHint}</span>
            </span>
          </label>
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" className={buttonClass('danger', 'small')} onClick={confirm} disabled={busy}>
              {busy ? w.deleting : w.deleteChannel}
            </button>
            <button type="button" className={buttonClass('plain', 'small')} onClick={cancel} disabled={busy}>
              {w.cancel}
            </button>
          </div>
          {error && (
            <p className="m-0 rounded-lg bg-danger-bg px-3 py-2.5 text-danger [overflow-wrap:anywhere] focus:outline-2 focus:outline-danger" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </li>
  );
}
