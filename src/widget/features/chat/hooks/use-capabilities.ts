import { useEffect, useState } from 'react';
import type { TransportCapabilities } from '../../../../contract/channels.ts';
import type { ChatContext } from '../context.ts';

/** What each channel of the account can do (edit window, deleting, text limit), to offer only what works. */
export function useCapabilities(ctx: Pick<ChatContext, 'client'>): ReadonlyMap<string, TransportCapabilities> {
  const [byChannel, setByChannel] = useState<ReadonlyMap<string, TransportCapabilities>>(() => new Map());
  useEffect(() => {
    let wanted = true;
    ctx.client.channels().then(
      (channels) => wanted && setByChannel(new Map(channels.map((c) => [c.channel_id, c.capabilities]))),
      // Without them the screen offers sending only; the gateway still checks every call.
      () => {},
    );
    return () => {
      wanted = false;
    };
  }, [ctx.client]);
  return byChannel;
}
