import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { EmbedOptions } from '../../contract/iframe-links.ts';
import type { EmbedContext } from './embed-context.tsx';
import { langOf, LangProvider, type Lang } from './i18n.ts';

/** How the frame looks and speaks: the link's options, as the host page may change them later. */
export interface FrameOptions {
  theme: 'light' | 'dark' | 'auto';
  /** The language the screens are drawn in (the one asked for, when the frame speaks it; else English). */
  lang: Lang;
}

const OptionsContext = createContext<FrameOptions>({ theme: 'auto', lang: 'en' });

/**
 * Holds the session's options for every screen below it, and takes the host's `set_options` while the frame is
 * open: a new theme or language redraws the screen in place.
 */
export function FrameOptionsProvider({ ctx, children }: { ctx: Pick<EmbedContext, 'session' | 'onHostMessage'>; children: ReactNode }) {
  const [options, setOptions] = useState<EmbedOptions>(ctx.session.options);
  useEffect(
    () =>
      ctx.onHostMessage((message) => {
        if (message.type === 'set_options') setOptions((now) => ({ ...now, ...message.payload }));
      }),
    [ctx],
  );
  const value = useMemo<FrameOptions>(() => ({ theme: options.theme ?? 'auto', lang: langOf(options.lang) }), [options.theme, options.lang]);
  return (
    <OptionsContext.Provider value={value}>
      <LangProvider value={value.lang}>{children}</LangProvider>
    </OptionsContext.Provider>
  );
}

export function useFrameOptions(): FrameOptions {
  return useContext(OptionsContext);
}
