import type { HookRefreshPass, HookRegistrar } from './core/channels/hook-refresh.ts';
import type { Clock } from './core/ports.ts';
import { HOOK_REFRESH_EVERY_MS, startHookRefresh, type HookRefresher } from './jobs/workers/refresh-hooks.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { HookRegistrations } from './storage/repositories/hook-registrations.ts';

type PassLog = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

export interface HookRefreshWiring {
  registrations: HookRegistrations;
  registrars: readonly HookRegistrar[];
  clock: Clock;
  metrics: GatewayMetrics | null;
  log: PassLog;
}

/**
 * A pass's counts, at the level it calls for: a former bot still posting to a channel that left it is an error (no
 * pass comes back to it, and its updates reach the channel: its webhook or subscription must be removed by hand); a
 * channel that failed is tried again by a later pass.
 */
export function logPass(log: PassLog, pass: HookRefreshPass): void {
  if (pass.withdraw_failed > 0) log.error(pass, 'bot hook registrations checked; a bot a channel left may still post to it (see withdrawErrors)');
  else if (pass.failed > 0) log.warn(pass, 'bot hook registrations checked; some will be tried again');
  else log.info(pass, 'bot hook registrations checked');
}

/** Starts the refresh of live bot channels' hook registrations: at once, then hourly; each pass logs its counts. */
export function startBotHookRefresh(wiring: HookRefreshWiring): HookRefresher {
  const { log, metrics } = wiring;
  return startHookRefresh(
    { registrations: wiring.registrations, registrars: wiring.registrars, clock: wiring.clock, ...(metrics ? { counted: metrics.hookRefreshed } : {}) },
    HOOK_REFRESH_EVERY_MS,
    (pass) => logPass(log, pass),
    (err) => log.error({ err }, 'bot hook refresh failed'),
  );
}
