import { Gauge, type Registry } from 'prom-client';
import { rolled } from './core/pacing/gate.ts';
import type { PacingFigures } from './core/pacing/ports.ts';
import { effectiveProfile } from './core/pacing/profile.ts';
import type { Clock } from './core/ports.ts';

/**
 * Per personal channel (label `channel_id`, with its `transport`): sent today, first contacts today, held now, and the
 * gap drawn after its last send. Read from the database once per scrape for all four, so every process reports the
 * same values (aggregate with max).
 */
export function pacingGauges(registers: Registry[], clock: Clock, read: () => Promise<PacingFigures[]>): void {
  let reading: Promise<PacingFigures[] | null> | null = null;
  const figures = () =>
    (reading ??= read()
      .catch(() => null)
      .finally(() => {
        // The next scrape reads again; the gauges of this one share the read.
        setImmediate(() => (reading = null));
      }));
  const gauge = (name: string, help: string, value: (f: PacingFigures, today: ReturnType<typeof rolled>) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['channel_id', 'transport'] as const,
      registers,
      async collect() {
        const all = await figures();
        this.reset();
        const now = clock.now();
        for (const f of all ?? []) this.set({ channel_id: f.state.channelId, transport: f.transport }, value(f, rolled(f.state, effectiveProfile(f.state.overrides), now)));
      },
    });
  gauge('gateway_pacing_sent_today', 'Messages a personal channel sent on its local day so far.', (_, s) => s.sentToday);
  gauge('gateway_pacing_first_contacts_today', 'First contacts (chats nobody wrote in before) a personal channel made on its local day so far.', (_, s) => s.firstContactsToday);
  gauge('gateway_pacing_held', 'Sends of a personal channel its pacing holds now (over a cap, in quiet hours, slowed down).', (f) => f.held);
  gauge('gateway_pacing_gap_seconds', 'The pause a personal channel drew after its last send (longer after a burst, or when slowed down).', (f) => f.state.gapMs / 1000);
}
