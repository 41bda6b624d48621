import { useWords } from '../../../lib/i18n.ts';
import type { ShownKeyboard } from '../store/keyboard.ts';
import { templateWords } from '../template-words.ts';
import './keyboard.css';

/**
 * The buttons a message put before the customer, as they see them. Shown, not pressed: the agent is not the
 * customer, so only a button that opens a web page is a link (to check where it leads).
 */
export function MessageKeyboard({ keyboard }: { keyboard: ShownKeyboard }) {
  const w = useWords(templateWords).keyboard;
  return (
    <div className={`gw-keyboard gw-keyboard--${keyboard.kind}`} role="group" aria-label={keyboard.kind === 'reply' ? w.reply : w.inline}>
      {keyboard.kind === 'reply' && <span className="gw-keyboard__caption">{w.replyCaption}</span>}
      {keyboard.rows.map((row, i) => (
        <div className="gw-keyboard__row" key={i}>
          {row.map((button, j) =>
            button.url ? (
              <a className="gw-keyboard__button" key={j} href={button.url} target="_blank" rel="noreferrer noopener" title={w.opens(button.url)}>
                {button.text} ↗
              </a>
            ) : (
              <span className="gw-keyboard__button" key={j}>
                {button.text}
              </span>
            ),
          )}
        </div>
      ))}
    </div>
  );
}
