import type { BffChannel } from '../../../../contract/session.ts';
import { LinkButton } from '@/components/ui/Button.tsx';
import { useLang } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import type { useChannelList } from '../api/get-channels.ts';
import { useWords } from '@/lib/i18n.ts';
import { ChannelRow } from './ChannelRow.tsx';
import { listWords } from './list-words.ts';

interface Props {
  channels: ReturnType<typeof useChannelList>;
  currentId: string | null;
  onOpen(channel: BffChannel): void;
  onReconnect(channel: BffChannel): void;
  onDelete(channelId: string, deleteChats: boolean): Promise<void>;
}

/** The account's channels with their status, kept current by the stream. */
export function ChannelList({ channels, currentId, onOpen, onReconnect, onDelete }: Props) {
  const w = useWords(listWords);
  const lang = useLang();
  const list = channels.data;
  return (
    <section className="min-w-0 rounded-xl border border-line bg-panel p-4" aria-labelledby="gw-connect-channels-title">
      <h2 className="mt-0 mb-3 text-[17px] leading-[1.3] font-bold focus:outline-none" id="gw-connect-channels-title">
        {w.title}
      </h2>
      {channels.isPending && (
        <p className="m-0 text-muted" role="status">
          {w.loading}
        </p>
      )}
      {channels.isError && !list && (
        <p className="m-0 rounded-lg bg-danger-bg px-3 py-2.5 text-danger [overflow-wrap:anywhere] focus:outline-2 focus:outline-danger" role="alert">
          {w.failed} {refusalOf(channels.error, {}, lang).message}{' '}
          <LinkButton onClick={() => void channels.refetch()}>{w.retry}</LinkButton>
        </p>
      )}
      {list?.length === 0 && <p className="m-0 text-muted">{w.empty}</p>}
      {list && list.length > 0 && (
        <ul className="grid gap-2" aria-label={w.list}>
          {list.map((c) => (
            <ChannelRow key={c.channel_id} channel={c} current={c.channel_id === currentId} onOpen={onOpen} onReconnect={onReconnect} onDelete={onDelete} />
          ))}
        </ul>
      )}
    </section>
  );
}
