import { useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';

/**
 * A button's popover (a menu, a picker, a settings panel): Escape closes it and gives the focus back to its button;
 * the focus leaving the popover and its button closes it too. Spread `wrapper` on the element holding both.
 */
export function usePopover<T extends HTMLElement = HTMLButtonElement>() {
  const [open, setOpen] = useState(false);
  const toggle = useRef<T>(null);
  const wrapper = {
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Escape' && open) {
        e.stopPropagation();
        setOpen(false);
        toggle.current?.focus();
      }
    },
    onBlur: (e: FocusEvent<HTMLElement>) => {
      if (open && !e.currentTarget.contains(e.relatedTarget)) setOpen(false);
    },
  };
  return { open, setOpen, toggle, wrapper };
}
