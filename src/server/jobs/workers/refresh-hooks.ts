import { emptyPass, refreshHooks, type HookRefreshDeps, type HookRefreshPass } from '../../core/channels/hook-refresh.ts';

/** Once an hour: settings change with a restart, and a pass that failed for a channel is tried again no sooner than its claim lapses. */
export const HOOK_REFRESH_EVERY_MS = 60 * 60 * 1000;

type PassLog = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

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

export interface HookRefresher {
  /** The pass under way, or a new one: what a test waits for, the start-up pass included. */
  refresh(): Promise<HookRefreshPass>;
  /** Ends the pass under way between its batches (the calls under way end with it) and runs no other. */
  stop(): Promise<void>;
}

/**
 * Brings live bot channels' registrations up to date: a pass at once (the start-up one, after an upgrade or a new
 * PUBLIC_URL), then every `intervalMs`, one at a time in this process. Each pass's counts go to `onPass`.
 */
export function startHookRefresh(
  deps: HookRefreshDeps,
  intervalMs: number,
  onPass: (pass: HookRefreshPass) => void,
  onError: (err: unknown) => void,
): HookRefresher {
  const stopping = new AbortController();
  let running: Promise<HookRefreshPass> | null = null;
  const run = (): Promise<HookRefreshPass> => {
    if (stopping.signal.aborted) return Promise.resolve(emptyPass());
    return (running ??= refreshHooks(deps, stopping.signal)
      .then((pass) => {
        onPass(pass);
        return pass;
      })
      .finally(() => {
        running = null;
      }));
  };
  const runQuietly = () => void run().catch(onError);
  runQuietly();
  const timer = setInterval(runQuietly, intervalMs);
  timer.unref();
  return {
    refresh: run,
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await running?.catch(() => {});
    },
  };
}
