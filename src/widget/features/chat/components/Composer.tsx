import { lazy, Suspense, useEffect, useId, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import type { KeyboardKind } from '../../../../contract/channels.ts';
import { Button, LinkButton } from '@/components/ui/Button.tsx';
import { ErrorNote } from '@/components/ui/ErrorNote.tsx';
import { inputClass } from '@/components/ui/Input.tsx';
import { useWords } from '@/lib/i18n.ts';
import type { Outgoing } from '../api/send-message.ts';
import { keyboardOpenWords } from '../keyboard-open-words.ts';
import type { ComposerButtons } from '../store/keyboard-draft.ts';
import { useQuickReplySearch } from '../hooks/use-quick-reply-search.ts';
import { useChatUi } from '../store/ui.ts';
import { templateWords } from '../template-words.ts';
import { viewWords } from '../view-words.ts';
import { EmojiButton } from './EmojiButton.tsx';
import { FilePreview } from './FilePreview.tsx';
import { ButtonsIcon, PaperclipIcon, SendIcon, TemplateIcon } from './icons.tsx';
import { MicButton } from './MicButton.tsx';
import { QuickReplyMenu } from './QuickReplyMenu.tsx';

// Buttons are put on a message now and then: the builder (and what shows them waiting) loads on first use.
const KeyboardBuilderPanel = lazy(() => import('./KeyboardBuilderPanel.tsx'));
const QuickReplyManager = lazy(() => import('./QuickReplyManager.tsx'));

interface Props {
  /** Resolves to null when the gateway took the message, or to what to tell the agent. */
  onSend(content: Outgoing): Promise<string | null>;
  onEdit(messageId: string, text: string, before: string | null): Promise<string | null>;
  /** The longest text the chat's messenger accepts, when known. */
  limit: number | null;
  disabledReason?: string | null;
  /** Offered where the chat's channel sends business-API templates: opens the template form. */
  onOpenTemplates?: (() => void) | null;
  /** What the agent should know before writing (the text is still sent: the gateway decides). */
  notice?: string | null;
  /** The dialect of buttons the chat's channel takes; null or absent: it takes none. */
  keyboardKind?: KeyboardKind | null;
  /** The agent typed (the customer is shown it, throttled by the caller). */
  onTyping?: () => void;
}

/**
 * Grows the box with its text up to its max-height, then it scrolls. The height set is the border box's (the
 * text's height plus the borders): set to the scroll height alone, a one-line box was 2 px short and showed a
 * scrollbar. A box not laid out (hidden behind the template form) measures 0 and is left alone, so it never
 * collapses to a sliver.
 */
export function fit(box: HTMLTextAreaElement | null) {
  if (!box || box.offsetParent === null) return;
  box.style.height = 'auto';
  const borders = box.offsetHeight - box.clientHeight;
  const wanted = box.scrollHeight + borders;
  box.style.height = `${wanted}px`;
  // Scrolls only once the text is taller than the box may grow.
  box.style.overflowY = wanted > box.offsetHeight + 1 ? 'auto' : 'hidden';
}

/**
 * The text box: Enter sends, Shift+Enter starts a new line; a refused send is said plainly and the text kept.
 * A file comes by the picker, by dropping it here or by pasting it: it waits, shown, with the text as its
 * caption, until the agent sends or cancels it. A reply shows the message it quotes above the box. Buttons built
 * for the message wait above the box too, and go with the next message sent.
 */
export function Composer({ onSend, onEdit, limit, disabledReason, onOpenTemplates, notice, keyboardKind = null, onTyping }: Props) {
  const all = useWords(viewWords);
  const w = all.composer;
  const t = useWords(templateWords).templates;
  const k = useWords(keyboardOpenWords);
  const editing = useChatUi((s) => s.editing);
  const cancelEdit = useChatUi((s) => s.edit);
  const replyTo = useChatUi((s) => s.replyTo);
  const reply = useChatUi((s) => s.reply);
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [buttons, setButtons] = useState<ComposerButtons | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const errorId = useId();

  // Editing puts the message's text in the box; leaving the edit empties it.
  const editingId = editing?.messageId ?? null;
  const editingText = editing?.text ?? '';
  // `/` and a word search the account's quick replies (not while editing, captioning a file or unable to send).
  const quick = useQuickReplySearch(text, setText, !editingId && !file && !disabledReason);
  useEffect(() => {
    setText(editingId ? editingText : '');
    setError(null);
    if (editingId) box.current?.focus();
  }, [editingId, editingText]);
  useEffect(() => {
    if (replyTo) box.current?.focus();
  }, [replyTo]);
  // The open chat's composer takes the focus: the agent opened it to write. After the first paint: focusing while
  // the history mounts would force the browser to lay the whole view out before it could draw it.
  useEffect(() => {
    if (disabledReason) return;
    const frame = requestAnimationFrame(() => box.current?.focus({ preventScroll: true }));
    return () => cancelAnimationFrame(frame);
  }, [disabledReason]);
  useEffect(() => fit(box.current), [text]);
  // A frame resized (or the box shown again) may wrap the text differently.
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let width = el.clientWidth;
    const watch = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      fit(el);
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, []);

  const tooLong = limit !== null && text.length > limit;
  // Buttons of another dialect than the channel's (a new chat's channel changed) are not sent, nor the message with them.
  const attached = buttons?.attached;
  const canSend = !disabledReason && !tooLong && !(attached && !editingId && attached.draft.kind !== keyboardKind) && (file !== null || text.trim() !== '');
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const body = text.trim();
    if (!canSend) return;
    setError(null);
    if (editingId) {
      if (!body) return;
      const refused = await onEdit(editingId, body, editingText);
      if (refused) setError(refused);
      else cancelEdit(null);
      return;
    }
    const quote = replyTo ?? undefined;
    const sending = file;
    setText('');
    setFile(null);
    setButtons(null);
    reply(null);
    const keyboard = attached?.keyboard;
    const refused = await onSend(sending ? { file: sending, caption: body, quote, keyboard } : { text: body, quote, keyboard });
    if (refused) {
      setError(refused);
      // Give the text (and file, and buttons) back, unless the agent has started another one meanwhile.
      setText((now) => (now === '' ? body : now));
      if (sending) setFile((now) => now ?? sending);
      if (attached) setButtons((now) => now ?? { attached });
    } else if (keyboard) {
      setButtons((now) => now ?? { sent: keyboard });
    }
    box.current?.focus();
  };

  const take = (picked: File | null | undefined) => {
    if (picker.current) picker.current.value = '';
    if (!picked || editingId || disabledReason) return;
    setError(null);
    setFile(picked);
    box.current?.focus();
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = [...e.clipboardData.files][0];
    if (!pasted) return;
    e.preventDefault();
    take(pasted);
  };
  const onDrop = (e: DragEvent<HTMLFormElement>) => {
    e.preventDefault();
    setDragging(false);
    take(e.dataTransfer.files[0]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (quick.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Escape') {
      if (editingId) cancelEdit(null);
      else if (file) setFile(null);
      else if (replyTo) reply(null);
    }
  };

  const offerMore = !editingId && !disabledReason;
  return (
    <>
      <form
        className={`relative border-t border-line bg-panel px-3 pt-2 pb-3 ${dragging ? 'ring-2 ring-accent ring-inset' : ''}`}
        onSubmit={(e) => void submit(e)}
        onDragOver={(e) => {
          if (!offerMore || !e.dataTransfer.types.includes('Files')) return;
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        {error && (
          <ErrorNote className="mb-2" id={errorId} onDismiss={() => setError(null)} dismissLabel={all.dismissError}>
            <strong>{editingId ? w.notSaved : w.notSent}</strong> {error}
          </ErrorNote>
        )}
        {editingId && (
          <div className="mb-1.5 flex justify-between border-l-[3px] border-accent px-2.5 py-1 text-xs text-muted">
            <span>{w.editing}</span>
            <LinkButton onClick={() => cancelEdit(null)}>{w.cancel}</LinkButton>
          </div>
        )}
        {replyTo && !editingId && (
          <div className="mb-1.5 flex items-start justify-between gap-2 border-l-[3px] border-accent px-2.5 py-1 text-xs text-muted" role="group" aria-label={w.replyingLabel}>
            <span className="min-w-0">
              <span className="block font-semibold">{replyTo.direction === 'outbound' ? all.message.you : all.message.contact}</span>
              <span className="block truncate">{replyTo.text ?? replyTo.attachment_name ?? all.message.earlier}</span>
            </span>
            <LinkButton onClick={() => reply(null)} aria-label={w.cancelReply}>
              {w.cancel}
            </LinkButton>
          </div>
        )}
        {buttons && (
          <Suspense fallback={null}>
            <KeyboardBuilderPanel state={buttons} onChange={setButtons} kind={keyboardKind} editing={!!editingId} offer={offerMore} box={box} />
          </Suspense>
        )}
        {file && <FilePreview file={file} onCancel={() => setFile(null)} />}
        {disabledReason && <p className="mb-1.5 text-xs text-muted">{disabledReason}</p>}
        {notice && !editingId && !disabledReason && <p className="mb-1.5 border-l-[3px] border-accent pl-2 text-xs">{notice}</p>}
        {tooLong && <p className="mb-1.5 text-xs text-danger">{w.tooLong(text.length, limit)}</p>}
        {quick.open && <QuickReplyMenu {...quick.menu} />}
        {/* Narrower than 30rem the box takes its own row above the buttons: beside five of them it would be a sliver. */}
        <div className="flex flex-wrap items-end gap-2">
          {offerMore && (
            <>
              <Button className="flex-none px-2.5" aria-label={w.attach} title={w.attach} onClick={() => picker.current?.click()}>
                <PaperclipIcon className="block size-[18px]" />
              </Button>
              <input ref={picker} type="file" hidden tabIndex={-1} onChange={(e) => take(e.target.files?.[0])} />
              {!editingId && <MicButton onRecorded={take} disabled={!!disabledReason} />}
            </>
          )}
          {onOpenTemplates && offerMore && (
            <Button className="flex flex-none items-center gap-1.5" aria-label={t.openLabel} title={t.openLabel} onClick={onOpenTemplates}>
              <TemplateIcon />
              <span className="max-xs:hidden">{t.open}</span>
            </Button>
          )}
          {keyboardKind && offerMore && (
            <Button className="flex flex-none items-center gap-1.5" aria-label={k.openLabel} title={k.openLabel} onClick={() => setButtons({ ...buttons, opener: document.activeElement })}>
              <ButtonsIcon />
              <span className="max-xs:hidden">{k.open}</span>
            </Button>
          )}
          <textarea
            ref={box}
            className={`${inputClass} min-w-0 flex-1 max-h-[140px] resize-none max-xs:order-first max-xs:basis-full`}
            aria-label={editingId ? w.editedLabel : file ? w.captionLabel : w.label}
            aria-describedby={error ? errorId : undefined}
            aria-invalid={tooLong || undefined}
            {...quick.boxProps}
            placeholder={file ? w.captionPlaceholder : w.placeholder}
            rows={1}
            value={text}
            disabled={!!disabledReason}
            onChange={(e) => (setText(e.target.value), onTyping?.())}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
          />
          {!disabledReason && <EmojiButton box={box} onText={setText} />}
          {/* A narrow frame keeps the text box wide: the button shows its mark instead of its word. */}
          <Button type="submit" variant="primary" disabled={!canSend} aria-label={editingId ? w.save : w.send} className="max-xs:px-2.5">
            <span className="max-xs:hidden">{editingId ? w.save : w.send}</span>
            <SendIcon className="xs:hidden" />
          </Button>
        </div>
      </form>
      {quick.managing && (
        <Suspense fallback={null}>
          <QuickReplyManager onClose={() => (quick.stopManaging(), box.current?.focus())} />
        </Suspense>
      )}
    </>
  );
}
