import { create } from 'zustand';

/**
 * A message the history should bring into view (a search match): the history reads older pages until it holds
 * it, then scrolls to it. `missed` is set when the history ended, or the walk's bound was reached, without it.
 */
interface Jump {
  target: string | null;
  missed: string | null;
  jump(messageId: string): void;
  reached(): void;
  miss(): void;
}

export const useJump = create<Jump>()((set) => ({
  target: null,
  missed: null,
  jump: (target) => set({ target, missed: null }),
  reached: () => set({ target: null }),
  miss: () => set((s) => ({ target: null, missed: s.target })),
}));
