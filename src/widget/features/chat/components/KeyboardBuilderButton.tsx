import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/Button.tsx';
import { inputClass } from '@/components/ui/Input.tsx';
import { useWords } from '@/lib/i18n.ts';
import { keyboardWords } from '../keyboard-words.ts';
import { shapeOf, type ButtonField, type DraftButton, type FieldCheck, type Intent, type KeyboardDraft } from '../store/keyboard-draft.ts';

const selectClass = 'w-full rounded-lg border border-line bg-panel px-2 py-1.5 text-inherit';
const labelClass = 'text-xs text-muted';

interface FieldProps {
  id: string;
  label: string;
  value: string;
  check: FieldCheck | undefined;
  /** A blank field says it is required once the agent has left it, or has started on its button. */
  showRequired: boolean;
  inputMode?: 'url' | 'text';
  onChange(value: string): void;
  onLeave(): void;
}

/** A labelled box with its count against the limit ("17/20"), and what is wrong with it said under it as it is typed. */
function Field({ id, label, value, check, showRequired, inputMode = 'text', onChange, onLeave }: FieldProps) {
  const w = useWords(keyboardWords);
  const measure = check?.measure ?? null;
  const problem = check?.problem && (check.problem.code !== 'required' || showRequired) ? check.problem : null;
  const over = measure !== null && measure.count > measure.max;
  const describedBy = [measure && `${id}-count`, problem && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className={labelClass}>
          {label}
        </label>
        {measure && (
          <span id={`${id}-count`} className={`text-xs ${over ? 'font-semibold text-danger' : 'text-muted'}`}>
            {w.counter(measure)}
          </span>
        )}
      </div>
      <input
        id={id}
        className={`${inputClass} py-1.5 ${problem ? 'border-danger' : ''}`}
        type="text"
        inputMode={inputMode}
        autoComplete="off"
        spellCheck={inputMode !== 'url'}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onLeave}
      />
      {problem && (
        <p id={`${id}-error`} className="m-0 text-xs text-danger">
          {w.problem(problem)}
        </p>
      )}
    </div>
  );
}

function Choice({ id, label, children, value, onChange }: { id: string; label: string; children: ReactNode; value: string; onChange(value: string): void }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} className={selectClass} value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

interface Props {
  /** Prefix of the fields' ids: `<idBase>-text` is the box that takes the focus when the button is added. */
  idBase: string;
  name: string;
  draft: KeyboardDraft;
  button: DraftButton;
  checks: Partial<Record<ButtonField, FieldCheck>> | undefined;
  onEdit(patch: Partial<Omit<DraftButton, 'id'>>): void;
  onRemove(): void;
}

/** One button's fields, as its dialect and type have them; the rest are kept, unsent, should the type change back. */
export function KeyboardBuilderButton({ idBase, name, draft, button, checks, onEdit, onRemove }: Props) {
  const w = useWords(keyboardWords);
  const shape = shapeOf(draft, button);
  const [left, setLeft] = useState<Partial<Record<ButtonField, boolean>>>({});
  // A button the agent has started on says at once what it still needs; a new, blank one does not nag.
  const started = [button.text, button.payload, button.url].some((v) => v !== '');
  const field = (f: ButtonField, label: string, inputMode: 'url' | 'text' = 'text') => (
    <Field
      id={`${idBase}-${f}`}
      label={label}
      value={button[f]}
      check={checks?.[f]}
      showRequired={started || left[f] === true}
      inputMode={inputMode}
      onChange={(value) => onEdit({ [f]: value })}
      onLeave={() => setLeft((l) => ({ ...l, [f]: true }))}
    />
  );
  return (
    <fieldset className="m-0 flex min-w-0 flex-col gap-1.5 rounded-md border border-line p-2">
      <legend className="px-2 text-xs font-semibold">{name}</legend>
      {field('text', w.text)}
      {shape.types && (
        <Choice id={`${idBase}-type`} label={w.type} value={button.type} onChange={(type) => onEdit({ type: type as DraftButton['type'] })}>
          {shape.types.map((t) => (
            <option key={t} value={t}>
              {w.types[t]}
            </option>
          ))}
        </Choice>
      )}
      {shape.payload && field('payload', draft.kind === 'telegram_bot' ? w.callbackData : w.payload)}
      {shape.url && field('url', w.url, 'url')}
      {shape.intent && (
        <Choice id={`${idBase}-intent`} label={w.intent} value={button.intent} onChange={(intent) => onEdit({ intent: intent as Intent })}>
          {(['default', 'positive', 'negative'] as const).map((i) => (
            <option key={i} value={i}>
              {w.intents[i]}
            </option>
          ))}
        </Choice>
      )}
      <Button size="small" variant="quiet" className="self-end" aria-label={w.removeLabel(name)} onClick={onRemove}>
        {w.remove}
      </Button>
    </fieldset>
  );
}
