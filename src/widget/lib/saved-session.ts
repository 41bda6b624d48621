const PREFIX = 'gw-frame-session:';

export interface SavedSession {
  token: string;
  expires_at: string;
}

/**
 * Which frame a saved session belongs to: the link it was opened with (the link's signature, its last characters,
 * is enough to tell links apart). A page may hold several frames of the gateway (a card's chats, an inbox), and
 * they share the tab's storage.
 */
export const frameKey = (link: string): string => link.slice(-32);

/**
 * Where a frame keeps its session across a reload: this tab's session storage (gone with the tab), under its
 * link's key. A reloaded frame, or a reloaded host page that embeds the same single-use link again, takes up the
 * session the link was traded for.
 */
export function savedSessions(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null, key: string | null, now: () => number = Date.now) {
  const name = key === null ? null : PREFIX + key;
  return {
    read(): SavedSession | null {
      if (!storage || !name) return null;
      try {
        const saved = JSON.parse(storage.getItem(name) ?? 'null') as { token?: unknown; expires_at?: unknown } | null;
        return typeof saved?.token === 'string' && typeof saved.expires_at === 'string' && Date.parse(saved.expires_at) > now() ? { token: saved.token, expires_at: saved.expires_at } : null;
      } catch {
        return null;
      }
    },
    write(saved: SavedSession): void {
      try {
        if (name) storage?.setItem(name, JSON.stringify(saved));
      } catch {
        // Storage full or refused: a reload then needs a new link, as before.
      }
    },
    clear(): void {
      try {
        if (name) storage?.removeItem(name);
      } catch {
        // Nothing kept.
      }
    },
  };
}

/** The tab's session storage, where the browser allows a frame one (not with third-party storage blocked). */
export function tabStorage(win: Window): Storage | null {
  try {
    return win.sessionStorage;
  } catch {
    return null;
  }
}
