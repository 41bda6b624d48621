/** A page with lines of text: the template button's mark, which stays when a narrow frame drops its word. */
export function TemplateIcon() {
  return (
    <svg className="gw-template-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path d="M7 3h7l4 4v14H7zM14 3v4h4M10 12h5M10 16h5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
