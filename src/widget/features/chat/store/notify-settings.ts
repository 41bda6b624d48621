import { create, type StoreApi, type UseBoundStore } from 'zustand';

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

const createSettings = () =>
  create<NotifySettings>((set, get) => ({
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

/**
 * Read from the browser's storage the first time they are wanted (the bell's panel opened, a message come in),
 * not as the frame starts: a frame's first touch of its storage waits on the browser, and the first screen needs
 * none of this.
 */
let settings: UseBoundStore<StoreApi<NotifySettings>> | null = null;
export const notifySettings = (): UseBoundStore<StoreApi<NotifySettings>> => (settings ??= createSettings());

/** The settings in a component, which draws again when they change. */
export const useNotifySettings = (): NotifySettings => notifySettings()();
