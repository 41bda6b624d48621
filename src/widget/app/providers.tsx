import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { EmbedProvider, type EmbedContext } from '@/lib/embed-context.tsx';
import { FrameOptionsProvider } from '@/lib/frame-options.tsx';
import { createQueryClient } from '@/lib/query-client.ts';

/** What every screen of a frame runs inside: its server-state cache, its session and stream, its look and language. */
export function Providers({ ctx, children }: { ctx: EmbedContext; children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <EmbedProvider ctx={ctx}>
        <FrameOptionsProvider ctx={ctx}>{children}</FrameOptionsProvider>
      </EmbedProvider>
    </QueryClientProvider>
  );
}
