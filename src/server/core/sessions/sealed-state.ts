import type { CredentialsCipher } from '../channels/ports.ts';
import { SessionLeaseLost, type SessionFence, type SessionState, type SessionStateRepository } from './ports.ts';

/**
 * A session's state as its driver sees it: JSON values by key, each sealed with the credentials cipher (AES-256-GCM
 * under SECRET_KEY) before it reaches the database, and written only while this process holds the session: a write
 * refused as stale calls `lost` (the runner stops the session) and throws SessionLeaseLost.
 */
export function sealedSessionState(states: SessionStateRepository, cipher: CredentialsCipher, fence: SessionFence, lost: () => void = () => {}): SessionState {
  const refused = () => {
    lost();
    return new SessionLeaseLost(fence.channelId);
  };
  return {
    async get(keys) {
      const stored = await states.read(fence.channelId, keys);
      const values: Record<string, unknown> = {};
      for (const [key, sealed] of stored) values[key] = cipher.open(sealed).v;
      return values;
    },
    async set(entries) {
      const rows = Object.entries(entries).map(([key, value]) => ({ key, value: value === null || value === undefined ? null : cipher.seal({ v: value }) }));
      if (rows.length === 0) return;
      if (!(await states.write(fence, rows))) throw refused();
    },
    end: () => states.end(fence),
    async clear() {
      if (!(await states.clear(fence))) throw refused();
    },
  };
}
