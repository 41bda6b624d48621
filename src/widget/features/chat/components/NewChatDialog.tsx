import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button, IconButton } from '@/components/ui/Button.tsx';
import { inputClass } from '@/components/ui/Input.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { useChannels } from '../api/get-channels.ts';
import { newChatWords } from '../new-chat-words.ts';
import { addressKind, parseAddress, personalChatType, startingChannels, type AddressProblem } from '../store/new-chat.ts';
import { useChatUi } from '../store/ui.ts';
import { transportName } from './format.ts';

/**
 * A chat the agent starts from the inbox: the channel first (only those whose messenger lets a business write
 * first), then the contact as that messenger names them. The chat opens at once, empty, with the name shown; the
 * gateway creates it with the first message.
 */
export default function NewChatDialog({ onClose }: { onClose(): void }) {
  const lang = useLang();
  const w = useWords(newChatWords);
  const open = useChatUi((s) => s.open);
  const channels = startingChannels(useChannels().data ?? []);
  const [channelId, setChannelId] = useState<string>('');
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<AddressProblem | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = { title: useId(), hint: useId(), problem: useId() };

  const channel = channels.find((c) => c.channel_id === channelId) ?? (channels.length === 1 ? channels[0] : undefined);
  const kind = channel ? addressKind(channel.capabilities) : null;
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const close = () => {
    dialog.current?.close();
    onClose();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!channel || !kind) return;
    const chatType = personalChatType(channel.capabilities)!;
    const parsed = parseAddress(kind, address, chatType, channel.channel_id);
    if (typeof parsed === 'string') return setProblem(parsed);
    close();
    open({ kind: 'new', chat: { ...parsed, ...(name.trim() ? { contact_name: name.trim() } : {}) } });
  };

  const label = kind === 'phone' ? w.phone : kind === 'phone_or_username' ? w.phoneOrUsername : w.id;
  const hint = kind === 'phone' ? w.phoneHint : kind === 'phone_or_username' ? w.phoneOrUsernameHint : w.idHint;
  return (
    <dialog
      ref={dialog}
      className="m-auto w-[min(26rem,calc(100vw-1rem))] rounded-lg border border-line bg-panel p-0 text-text shadow-md backdrop:bg-black/40"
      aria-labelledby={ids.title}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <form onSubmit={submit} noValidate>
        <div className="flex items-center gap-2 border-b border-line px-3 py-2">
          <h2 id={ids.title} className="m-0 min-w-0 flex-1 truncate text-[15px] font-semibold">
            {w.title}
          </h2>
          <IconButton aria-label={w.cancel} title={w.cancel} onClick={close}>
            ✕
          </IconButton>
        </div>
        <div className="grid gap-3 p-3 text-sm">
          {channels.length === 0 ? (
            <p className="m-0 text-muted" role="status">
              {w.noChannel}
            </p>
          ) : (
            <>
              <label className="grid gap-1">
                <span className="font-semibold">{w.channel}</span>
                <select className={inputClass} value={channel?.channel_id ?? ''} onChange={(e) => (setChannelId(e.target.value), setProblem(null))} autoFocus={channels.length > 1}>
                  {!channel && <option value="">{w.chooseChannel}</option>}
                  {channels.map((c) => (
                    <option key={c.channel_id} value={c.channel_id}>
                      {[transportName(c.transport, lang), c.name ?? c.username ?? (c.phone ? `+${c.phone}` : null)].filter(Boolean).join(' · ')}
                    </option>
                  ))}
                </select>
              </label>
              {channel && !channel.capabilities.can_write_first && <p className="m-0 border-l-[3px] border-accent pl-2 text-xs">{w.templatesOnly}</p>}
              {kind && (
                <label className="grid gap-1">
                  <span className="font-semibold">{label}</span>
                  <input
                    className={inputClass}
                    value={address}
                    autoFocus={channels.length === 1}
                    inputMode={kind === 'phone' ? 'tel' : 'text'}
                    autoComplete="off"
                    maxLength={256}
                    aria-describedby={problem ? `${ids.problem} ${ids.hint}` : ids.hint}
                    aria-invalid={problem ? true : undefined}
                    onChange={(e) => (setAddress(e.target.value), setProblem(null))}
                  />
                  <span id={ids.hint} className="text-xs text-muted">
                    {hint}
                  </span>
                  {problem && (
                    <span id={ids.problem} className="text-xs text-danger" role="alert">
                      {w.problems[problem]}
                    </span>
                  )}
                </label>
              )}
              {kind && (
                <label className="grid gap-1">
                  <span className="font-semibold">{w.name}</span>
                  <input className={inputClass} value={name} maxLength={200} autoComplete="off" onChange={(e) => setName(e.target.value)} />
                </label>
              )}
            </>
          )}
        </div>
        <div className="flex justify-end gap-2 border-t border-line p-3">
          <Button onClick={close}>{w.cancel}</Button>
          <Button type="submit" variant="primary" disabled={!channel}>
            {w.start}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
