import type { ComponentProps } from 'react';

export type ButtonVariant = 'plain' | 'primary' | 'quiet' | 'danger';

const variants: Record<ButtonVariant, string> = {
  plain: 'border-line bg-panel text-inherit',
  primary: 'border-accent bg-accent font-semibold text-accent-text',
  quiet: 'border-transparent bg-transparent text-accent',
  danger: 'border-danger bg-danger font-semibold text-panel',
};

/**
 * The frames' button look, for a button or a link that acts as one; `small` for buttons on a row. The text colour is
 * the variant's alone: two colour utilities on one element are ordered by Tailwind, not by the class string.
 */
export const buttonClass = (variant: ButtonVariant = 'plain', size: 'normal' | 'small' = 'normal'): string =>
  `inline-flex cursor-pointer items-center justify-center gap-1.5 rounded-lg border no-underline disabled:cursor-default disabled:opacity-55 ${
    size === 'small' ? 'min-h-8 px-2.5 py-1' : 'min-h-9 px-3.5 py-1.5'
  } ${variants[variant]}`;

/** The frames' button: plain, primary (the one action a form is for), quiet (no frame), or danger (deleting). */
export function Button({ variant = 'plain', size = 'normal', className = '', ...props }: ComponentProps<'button'> & { variant?: ButtonVariant; size?: 'normal' | 'small' }) {
  return <button type="button" className={`${buttonClass(variant, size)} ${className}`} {...props} />;
}

/** A small button of a drawn mark alone; its name is its `aria-label`. */
export function IconButton({ className = '', ...props }: ComponentProps<'button'>) {
  return (
    <button
      type="button"
      className={`cursor-pointer rounded border-0 bg-transparent p-1 text-muted hover:bg-line hover:text-text focus-visible:bg-line focus-visible:text-text ${className}`}
      {...props}
    />
  );
}

/** A button that reads as a link, for an action inside a sentence ("Try again"). */
export function LinkButton({ className = '', ...props }: ComponentProps<'button'>) {
  return <button type="button" className={`cursor-pointer border-0 bg-transparent p-0 text-accent underline ${className}`} {...props} />;
}
