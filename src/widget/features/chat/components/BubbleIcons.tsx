/*
 * The marks of a message bubble, drawn in the text's colour: emoji fonts are missing on many machines (a clock or
 * a bin then shows as an empty box), a drawing is not.
 */

const drawn = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

/** A message on its way: accepted, not yet sent. */
export function ClockIcon() {
  return (
    <svg className="gw-bubble-icon" viewBox="0 0 24 24" width="12" height="12" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="8.5" {...drawn} />
      <path d="M12 7.5V12l3 2" {...drawn} />
    </svg>
  );
}

/** Edit. */
export function PencilIcon() {
  return (
    <svg className="gw-bubble-icon" viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
      <path d="M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4" {...drawn} />
    </svg>
  );
}

/** Delete. */
export function TrashIcon() {
  return (
    <svg className="gw-bubble-icon" viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
      <path d="M4.5 7h15M9.5 7V4.5h5V7M6.5 7l1 13h9l1-13M10.5 11v5.5M13.5 11v5.5" {...drawn} />
    </svg>
  );
}
