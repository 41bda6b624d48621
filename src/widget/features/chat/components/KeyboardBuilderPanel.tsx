import type { Dispatch, RefObject, SetStateAction } from 'react';
import type { KeyboardKind } from '../../../../contract/channels.ts';
import type { ComposerButtons } from '../store/keyboard-draft.ts';
import { keyboardWarnings } from '../store/keyboard-draft-warnings.ts';
import { KeyboardBuilder } from './KeyboardBuilder.tsx';
import { KeyboardAttached, KeyboardWarnings } from './KeyboardBuilderNotes.tsx';

interface Props {
  state: ComposerButtons;
  onChange: Dispatch<SetStateAction<ComposerButtons | null>>;
  /** The dialect of the chat's channel; null: it takes no buttons (any attached ones cannot go). */
  kind: KeyboardKind | null;
  /** The composer edits a message: buttons wait, unshown, for the next one. */
  editing: boolean;
  /** The composer offers its extras (not while editing, nor without a channel). */
  offer: boolean;
  box: RefObject<HTMLTextAreaElement | null>;
}

const focusLater = (target: Element | null | undefined, fallback: HTMLElement | null) =>
  requestAnimationFrame(() => (target instanceof HTMLElement && target.isConnected ? target : fallback)?.focus());

/**
 * Everything of the composer's buttons past the button that opens the builder, loaded with the builder on first use:
 * what the gateway changed in the last ones sent, the ones waiting for the next message, and the builder itself.
 */
export default function KeyboardBuilderPanel({ state, onChange, kind, editing, offer, box }: Props) {
  const warnings = state.sent && keyboardWarnings.get(state.sent);
  const { attached, opener } = state;
  const open = () => onChange((s) => ({ ...s, opener: document.activeElement }));
  return (
    <>
      {warnings && <KeyboardWarnings warnings={warnings} onDismiss={() => onChange((s) => s && { ...s, sent: undefined })} />}
      {attached && !editing && (
        <KeyboardAttached
          attached={attached}
          stale={attached.draft.kind !== kind}
          onEdit={kind && offer ? open : null}
          onRemove={() => (onChange((s) => s && { ...s, attached: null }), box.current?.focus())}
        />
      )}
      {opener !== undefined && kind && (
        <KeyboardBuilder
          kind={kind}
          initial={attached ?? null}
          onAttach={(next) => (onChange({ attached: next }), focusLater(box.current, null))}
          onClose={() => (onChange((s) => s && { ...s, opener: undefined }), focusLater(opener, box.current))}
        />
      )}
    </>
  );
}
