import { useId, useState } from 'react';
import { IconButton } from '@/components/ui/Button.tsx';
import { useWords } from '@/lib/i18n.ts';
import { notifyWords } from '../notify-words.ts';
import { useNotifySettings } from '../store/notify-settings.ts';
import { BellIcon } from './icons.tsx';
import { usePopover } from '@/lib/popover.ts';

type Permission = NotificationPermission | 'unsupported';

const permissionNow = (): Permission => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);

/**
 * The bell beside the list's search: a sound for new messages, and the browser's notifications, which the browser
 * asks the agent to allow the first time they are turned on. Escape, or the focus leaving it, closes it.
 */
export function NotifySettings() {
  const w = useWords(notifyWords);
  const { open, setOpen, toggle, wrapper } = usePopover();
  const panelId = useId();
  return (
    <div
      className="relative flex-none"
      {...wrapper}
    >
      <IconButton ref={toggle} className="grid size-9 place-items-center" aria-label={w.settings} title={w.settings} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        <BellIcon />
      </IconButton>
      {open && <NotifyPanel id={panelId} />}
    </div>
  );
}

/**
 * The bell's panel. The settings and the browser's permission are read as it opens: the permission may have
 * changed in the browser's own settings meanwhile, and the frame's first screen needs neither.
 */
function NotifyPanel({ id }: { id: string }) {
  const w = useWords(notifyWords);
  const { sound, desktop, setSound, setDesktop } = useNotifySettings();
  const [permission, setPermission] = useState<Permission>(permissionNow);

  const turnDesktop = async (on: boolean) => {
    if (!on || permission === 'unsupported') return setDesktop(false);
    const answer = permission === 'default' ? await Notification.requestPermission().catch((): NotificationPermission => 'denied') : permission;
    setPermission(answer);
    setDesktop(answer === 'granted');
  };

  return (
    <div id={id} role="group" aria-label={w.settings} className="absolute top-full right-0 z-20 mt-1 grid w-64 gap-2 rounded-lg border border-line bg-panel p-3 text-sm shadow-md">
      <label className="flex items-start gap-2">
        <input type="checkbox" className="mt-0.5" checked={sound} onChange={(e) => setSound(e.target.checked)} />
        {w.sound}
      </label>
      <label className="flex items-start gap-2">
        <input type="checkbox" className="mt-0.5" checked={desktop && permission === 'granted'} disabled={permission === 'unsupported'} onChange={(e) => void turnDesktop(e.target.checked)} />
        {w.desktop}
      </label>
      {permission === 'denied' && <p className="m-0 text-xs text-muted">{w.blocked}</p>}
      {permission === 'unsupported' && <p className="m-0 text-xs text-muted">{w.unsupported}</p>}
    </div>
  );
}
