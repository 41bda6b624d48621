import { useEffect, useId, useState } from 'react';
import type { ChannelPacingBody } from '../../../../contract/pacing.ts';
import { useLang } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { buttonClass } from '@/components/ui/Button.tsx';
import { useChannelPacing, useSavePacing } from '../api/pacing.ts';
import { pacingWords } from './pacing-words.ts';

const when = (iso: string, lang: string) => new Date(iso).toLocaleString(lang, { dateStyle: 'short', timeStyle: 'short' });

/** The form's fields, as the admin edits them. */
interface Draft {
  enabled: boolean;
  warmUp: boolean;
  timeZone: string;
  quiet: boolean;
  from: string;
  to: string;
}

const draftOf = (p: ChannelPacingBody['profile']): Draft => ({
  enabled: p.enabled,
  warmUp: p.warm_up,
  timeZone: p.time_zone,
  quiet: p.quiet_hours !== null,
  from: p.quiet_hours?.from ?? '22:00',
  to: p.quiet_hours?.to ?? '08:00',
});

/** A personal channel's sending pace: the switches an admin needs, and where the channel's day and queue stand. */
export function PacingSettings({ channelId, onClose }: { channelId: string; onClose(): void }) {
  const lang = useLang();
  const w = pacingWords[lang];
  const id = useId();
  const pacing = useChannelPacing(channelId);
  const save = useSavePacing(channelId);
  const [draft, setDraft] = useState<Draft | null>(null);
  useEffect(() => {
    if (pacing.data && !draft) setDraft(draftOf(pacing.data.profile));
  }, [pacing.data, draft]);
  const set = (changes: Partial<Draft>) => setDraft((d) => d && { ...d, ...changes });

  if (!pacing.data || !draft) return <p className="m-0 flex-[1_1_100%] text-muted">{w.loading}</p>;
  const s = pacing.data.state;
  const submit = () =>
    save.mutate({
      enabled: draft.enabled,
      warm_up: draft.warmUp,
      time_zone: draft.timeZone.trim(),
      quiet_hours: draft.quiet ? { from: draft.from, to: draft.to } : null,
    });

  return (
    <form
      className="grid flex-[1_1_100%] gap-2 border-t border-line pt-2 text-sm"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <p className="m-0 font-semibold" id={`${id}-title`}>
        {w.title}
      </p>
      <p className="m-0 text-[13px] text-muted">{w.hint}</p>
      <p className="m-0" data-testid="pacing-today">
        {w.today(s.day, s.sent_today, s.daily_cap, s.first_contacts_today, s.first_contact_cap)} {w.queue(s.queue_length, s.held)}
        {s.next_send_at && ` ${w.next(when(s.next_send_at, lang))}`}
      </p>
      {s.slowed_down && <p className="m-0 rounded-lg bg-danger-bg px-3 py-2 text-danger">{w.slowed(when(s.slowed_down.until, lang))}</p>}
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
        {w.enabled}
      </label>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={draft.warmUp} onChange={(e) => set({ warmUp: e.target.checked })} />
        {w.warmUp}
      </label>
      <label className="flex flex-wrap items-center gap-2">
        {w.timeZone}
        <input className="rounded-md border border-line px-2 py-1" value={draft.timeZone} onChange={(e) => set({ timeZone: e.target.value })} />
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={draft.quiet} onChange={(e) => set({ quiet: e.target.checked })} />
          {w.quiet}
        </label>
        <label className="flex items-center gap-1">
          {w.from}
          <input type="time" className="rounded-md border border-line px-1" value={draft.from} disabled={!draft.quiet} onChange={(e) => set({ from: e.target.value })} />
        </label>
        <label className="flex items-center gap-1">
          {w.to}
          <input type="time" className="rounded-md border border-line px-1" value={draft.to} disabled={!draft.quiet} onChange={(e) => set({ to: e.target.value })} />
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={buttonClass('plain', 'small')} disabled={save.isPending}>
          {save.isPending ? w.saving : w.save}
        </button>
        <button type="button" className={buttonClass('quiet', 'small')} onClick={onClose}>
          {w.close}
        </button>
        {save.isSuccess && <span className="text-muted">{w.saved}</span>}
      </div>
      {save.error && (
        <p className="m-0 rounded-lg bg-danger-bg px-3 py-2.5 text-danger" role="alert">
          {refusalOf(save.error, {}, lang).message}
        </p>
      )}
    </form>
  );
}
