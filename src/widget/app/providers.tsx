import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { EmbedProvider, type EmbedContext } from '@/lib/embed-context.tsx';
import { FrameOptionsProvider } from '@/lib/frame-options.tsx';

/**
 * What every screen of a frame runs inside: its server-state cache (made when the frame starts, so that the first
 * reads can begin before React renders), its session and stream, its look and language.
 */
export function Providers({ ctx, queryClient, children }: { ctx: EmbedContext; queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <EmbedProvider ctx={ctx}>
        <FrameOptionsProvider ctx={ctx}>{children}</FrameOptionsProvider>
      </EmbedProvider>
    </QueryClientProvider>
  );
}
