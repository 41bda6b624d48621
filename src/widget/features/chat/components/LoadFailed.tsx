/** A read that failed, said in the list or history it left empty, with a way to try again. */
export function LoadFailed({ what, error, className, onRetry }: { what: string; error: string | null; className: string; onRetry: () => void }) {
  return (
    <div className={`${className} gw-error`} role="alert">
      Could not load the {what}: {error}{' '}
      <button type="button" className="gw-link-button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
