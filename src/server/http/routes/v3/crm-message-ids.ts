import type { Clock } from '../../../core/ports.ts';

/** How long a `crmMessageId` makes a repeated send a duplicate. */
export const CRM_MESSAGE_ID_WINDOW_MS = 60_000;
/** Kept ids beyond which expired ones are swept. */
const SWEEP_AT = 10_000;

/**
 * The `crmMessageId`s of this process's recent sends, per account. An id is taken before the send is accepted (two
 * identical requests at once: one is sent) and given back when the send is refused, so a corrected retry goes out.
 */
export class CrmMessageIds {
  private readonly taken = new Map<string, number>();
  private readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** False when the id was taken less than 60 seconds ago. */
  take(accountId: string, crmMessageId: string): boolean {
    const now = this.clock.now().getTime();
    const key = `${accountId}\u0000${crmMessageId}`;
    const until = this.taken.get(key);
    if (until !== undefined && until > now) return false;
    if (this.taken.size >= SWEEP_AT) for (const [k, expiry] of this.taken) if (expiry <= now) this.taken.delete(k);
    this.taken.set(key, now + CRM_MESSAGE_ID_WINDOW_MS);
    return true;
  }

  giveBack(accountId: string, crmMessageId: string): void {
    this.taken.delete(`${accountId}\u0000${crmMessageId}`);
  }
}
