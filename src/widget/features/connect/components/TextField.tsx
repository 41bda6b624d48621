import type { InputHTMLAttributes, Ref } from 'react';

interface Props extends Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'inputMode' | 'placeholder' | 'autoFocus' | 'disabled'> {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  hint?: string | undefined;
  /** Said next to the input, and read out with it. */
  error?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled input whose hint and error are tied to it for assistive technology. */
export function TextField({ id, label, value, onChange, hint, error, inputRef, ...input }: Props) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="grid gap-1">
      <label className="mb-1.5 p-0 font-semibold" htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        ref={inputRef}
        id={id}
        className="w-full rounded-lg border border-line bg-panel px-2.5 py-2 text-inherit aria-[invalid=true]:border-danger"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        spellCheck={false}
      />
      {hint && (
        <p className="m-0 text-[13px] text-muted" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="m-0 text-[13px] text-danger" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
