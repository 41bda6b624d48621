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
    <div className="gw-connect-field">
      <label className="gw-connect-field__label" htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        ref={inputRef}
        id={id}
        className="gw-connect-input"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        spellCheck={false}
      />
      {hint && (
        <p className="gw-connect-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="gw-connect-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
