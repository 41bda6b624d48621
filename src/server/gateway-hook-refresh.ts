import type { HookRegistrar } from './core/channels/hook-refresh.ts';
import type { Clock } from './core/ports.ts';
import { HOOK_REFRESH_EVERY_MS, startHookRefresh, type HookRefresher } from './jobs/workers/refresh-hooks.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { HookRegistrations } from './storage/repositories/hook-registrations.ts';

export interface HookRefreshWiring {
  registrations: HookRegistrations;
  registrars: readonly HookRegistrar[];
  clock: Clock;
  metrics: GatewayMetrics | null;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Starts the refresh of live bot channels' hook registrations: at once, then hourly; each pass logs its counts. */
export function startBotHookRefresh(wiring: HookRefreshWiring): HookRefresher {
  const { log, metrics } = wiring;
  return startHookRefresh(
    { registrations: wiring.registrations, registrars: wiring.registrars, clock: wiring.clock, ...(metrics ? { counted: metrics.hookRefreshed } : {}) },
    HOOK_REFRESH_EVERY_MS,
    (pass) => (pass.failed > 0 ? log.warn(pass, 'bot hook registrations checked; some will be tried again') : log.info(pass, 'bot hook registrations checked')),
    (err) => log.error({ err }, 'bot hook refresh failed'),
  );
}
