import type { BffChannel } from '../../../../contract/session.ts';
import type { ChannelsState } from '../store/channels.ts';
import { useWords } from '../../../lib/i18n.ts';
import { ChannelRow } from './ChannelRow.tsx';
import { listWords } from './list-words.ts';

interface Props {
  state: ChannelsState;
  currentId: string | null;
  onOpen(channel: BffChannel): void;
  onReconnect(channel: BffChannel): void;
  onDelete(channelId: string, deleteChats: boolean): Promise<void>;
  onRetry(): void;
}

/** The account's channels with their status, kept current by the stream. */
export function ChannelList({ state, currentId, onOpen, onReconnect, onDelete, onRetry }: Props) {
  const w = useWords(listWords);
  return (
    <section className="gw-connect__list" aria-labelledby="gw-connect-channels-title">
      <h2 className="gw-connect__title" id="gw-connect-channels-title">
        {w.title}
      </h2>
      {state.phase === 'loading' && (
        <p className="gw-connect-note" role="status">
          {w.loading}
        </p>
      )}
      {state.phase === 'failed' && (
        <p className="gw-connect-alert" role="alert">
          {w.failed} {state.error}{' '}
          <button type="button" className="gw-connect-link-button" onClick={onRetry}>
            {w.retry}
          </button>
        </p>
      )}
      {state.phase === 'ready' && state.channels.length === 0 && <p className="gw-connect-note">{w.empty}</p>}
      {state.channels.length > 0 && (
        <ul className="gw-connect__channels" aria-label={w.list}>
          {state.channels.map((c) => (
            <ChannelRow key={c.channel_id} channel={c} current={c.channel_id === currentId} onOpen={onOpen} onReconnect={onReconnect} onDelete={onDelete} />
          ))}
        </ul>
      )}
    </section>
  );
}
