import type { Lang } from '@/lib/i18n.ts';
import { shortWhen } from './format.ts';

/** A list row's first line: whose chat it is, and when (a chat's last activity, a found message's time). */
export function RowHeading({ title, at, lang, titleClass = '' }: { title: string; at: string; lang: Lang; titleClass?: string }) {
  return (
    <span className="flex min-w-0 items-center gap-2">
      <span className={`flex-1 truncate font-semibold ${titleClass}`}>{title}</span>
      <time className="text-xs text-muted" dateTime={at}>
        {shortWhen(at, lang)}
      </time>
    </span>
  );
}
