import { create } from 'zustand';

/**
 * The agent's choices for new messages: a sound, and the browser's notifications (which the browser asks the
 * agent to allow first). Both are off until the agent turns them on, and kept in the browser.
 */
export interface NotifySettings {
  sound: boolean;
  desktop: boolean;
  setSound(on: boolean): void;
  setDesktop(on: boolean): void;
}

const STORAGE_KEY = 'gw-notify';

function load(): Pick<NotifySettings, 'sound' | 'desktop'> {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Record<'sound' | 'desktop', unknown>>;
    return { sound: saved.sound === true, desktop: saved.desktop === true };
  } catch {
    return { sound: false, desktop: false };
  }
}

function save(state: Pick<NotifySettings, 'sound' | 'desktop'>) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Not kept: the choice lasts as long as the frame.
  }
}

export const useNotifySettings = create<NotifySettings>((set, get) => ({
  ...(typeof localStorage === 'undefined' ? { sound: false, desktop: false } : load()),
  setSound: (sound) => {
    set({ sound });
    save({ sound, desktop: get().desktop });
  },
  setDesktop: (desktop) => {
    set({ desktop });
    save({ sound: get().sound, desktop });
  },
}));
