/** A paperclip drawn in the text's colour: emoji fonts are missing on many machines, a drawing is not. */
export function PaperclipIcon() {
  return (
    <svg className="gw-paperclip" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path d="M16 7v9a4 4 0 0 1-8 0V6a2.5 2.5 0 0 1 5 0v9.5a1 1 0 0 1-2 0V8" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
