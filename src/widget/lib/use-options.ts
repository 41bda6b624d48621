import { useEffect, useState } from 'react';
import type { EmbedOptions } from '../../contract/iframe-links.ts';
import type { EmbedContext } from './embed-context.ts';

/** The link's theme and language, as the host page may change them later with `set_options` (every screen). */
export function useOptions(ctx: Pick<EmbedContext, 'session' | 'onHostMessage'>): { theme: 'light' | 'dark' | 'auto'; lang: string } {
  const [options, setOptions] = useState<EmbedOptions>(ctx.session.options);
  useEffect(
    () =>
      ctx.onHostMessage((message) => {
        if (message.type === 'set_options') setOptions((now) => ({ ...now, ...message.payload }));
      }),
    [ctx],
  );
  return { theme: options.theme ?? 'auto', lang: options.lang ?? 'en' };
}
