import { useEffect, useRef, useState } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import { Button, IconButton } from '@/components/ui/Button.tsx';
import { ErrorNote } from '@/components/ui/ErrorNote.tsx';
import { inputClass } from '@/components/ui/Input.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useChannels } from '../api/get-channels.ts';
import { useChatList } from '../api/get-chats.ts';
import { newSendKey, useSendMessage } from '../api/send-message.ts';
import { forwardWords } from '../forward-words.ts';
import { forwardTargets, useForward, type Forwarded } from '../store/forward.ts';
import { useChatUi } from '../store/ui.ts';
import { viewWords } from '../view-words.ts';
import { chatTitle } from './format.ts';
import { MessengerMark } from './MessengerMark.tsx';

const SEARCH_DELAY_MS = 300;

/**
 * Sends the forward to the chosen chat through the frame's send, as the composer does: a file with its words as its
 * caption (one message where the messenger shows one, else the gateway sends the words after it), or the words.
 */
function SendTo({ chat, content, onSent }: { chat: BffChat; content: Forwarded; onSent(): void }) {
  const lang = useLang();
  const w = useWords(forwardWords);
  const all = useWords(viewWords);
  const send = useSendMessage(chat);
  const [error, setError] = useState<string | null>(null);
  const forward = async () => {
    setError(null);
    try {
      if (content.attachment) await send.mutateAsync({ attachment: content.attachment, ...(content.text !== null ? { caption: content.text } : {}), key: newSendKey() });
      else if (content.text !== null) await send.mutateAsync({ text: content.text, key: newSendKey() });
      onSent();
    } catch (err) {
      setError(refusalOf(err, {}, lang).message);
    }
  };
  return (
    <>
      {error && (
        <ErrorNote className="w-full" onDismiss={() => setError(null)} dismissLabel={all.dismissError}>
          <strong>{w.notSent}</strong> {error}
        </ErrorNote>
      )}
      <Button variant="primary" disabled={send.isPending} onClick={() => void forward()}>
        {send.isPending ? w.sending : w.send}
      </Button>
    </>
  );
}

/**
 * The forward the agent started from a message's menu: the account's other chats that can take the message, with
 * the list's search; the chosen one gets it, and the dialog says so and offers to open that chat. Escape or Close
 * ends it and gives the focus back to the menu's button.
 */
export function ForwardDialog({ fromChatRef }: { fromChatRef: string | null }) {
  const content = useForward((s) => s.content);
  return content ? <Dialog key={fromChatRef} content={content} fromChatRef={fromChatRef} /> : null;
}

function Dialog({ content, fromChatRef }: { content: Forwarded; fromChatRef: string | null }) {
  const lang = useLang();
  const w = useWords(forwardWords);
  const opener = useForward((s) => s.opener);
  const finish = useForward((s) => s.finish);
  const openChat = useChatUi((s) => s.open);
  const dialog = useRef<HTMLDialogElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [chosen, setChosen] = useState<BffChat | null>(null);
  const [sentTo, setSentTo] = useState<BffChat | null>(null);
  const list = useChatList(q);
  const channels = useChannels().data ?? [];
  const targets = forwardTargets(list.data ?? [], channels, content, fromChatRef);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    // The dialog takes the focus to its first button as it opens: the agent came to search.
    searchBox.current?.focus();
  }, []);
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [text]);

  const close = () => {
    dialog.current?.close();
    finish();
    requestAnimationFrame(() => opener?.isConnected && opener.focus());
  };
  const preview = content.text ?? content.attachment?.name ?? content.attachment?.url ?? '';

  return (
    <dialog
      ref={dialog}
      className="m-auto max-h-[85vh] w-[min(28rem,calc(100vw-1rem))] flex-col rounded-lg border border-line bg-panel p-0 open:flex text-text shadow-md backdrop:bg-black/40"
      aria-labelledby="gw-forward-title"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') e.stopPropagation();
      }}
    >
      <div className="flex items-center gap-2 border-b border-line px-3 py-2">
        <h2 id="gw-forward-title" className="m-0 min-w-0 flex-1 truncate text-[15px] font-semibold">
          {w.title}
        </h2>
        <IconButton aria-label={w.close} title={w.close} onClick={close}>
          ✕
        </IconButton>
      </div>
      <p className="m-0 line-clamp-2 border-l-[3px] border-accent mx-3 mt-2 px-2 text-sm text-muted break-words">{preview}</p>
      {sentTo ? (
        <div className="flex flex-wrap items-center gap-2 p-3">
          <p className="m-0 w-full text-sm" role="status">
            {w.sent(chatTitle(sentTo, lang))}
          </p>
          <Button variant="primary" autoFocus onClick={() => (close(), openChat({ kind: 'chat', chat: sentTo }))}>
            {w.openChat}
          </Button>
          <Button onClick={close}>{w.close}</Button>
        </div>
      ) : (
        <>
          <div className="p-3 pb-2">
            <input
              ref={searchBox}
              type="search"
              className={inputClass}
              aria-label={w.search}
              placeholder={w.searchPlaceholder}
              value={text}
              maxLength={200}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto border-t border-line">
            {list.isPending && <p className="m-0 p-3 text-sm text-muted" role="status">{w.loading}</p>}
            {list.isError && <p className="m-0 p-3 text-sm text-danger" role="alert">{w.loadFailed}</p>}
            {list.isSuccess && targets.length === 0 && <p className="m-0 p-3 text-sm text-muted" role="status">{w.none}</p>}
            {targets.length > 0 && (
              <ul className="m-0 list-none p-0" aria-label={w.chats}>
                {targets.map((chat) => (
                  <li key={chat.chat_ref}>
                    <button
                      type="button"
                      className={`block w-full cursor-pointer border-0 border-b border-line px-3 py-2 text-left text-sm text-text hover:bg-selected focus-visible:bg-selected ${chosen?.chat_ref === chat.chat_ref ? 'bg-selected' : 'bg-transparent'}`}
                      aria-pressed={chosen?.chat_ref === chat.chat_ref}
                      onClick={() => setChosen(chat)}
                    >
                      <span className="block truncate font-semibold">{chatTitle(chat, lang)}</span>
                      <MessengerMark transport={chat.transport} channel={chat.channel_name} />
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {list.hasNextPage && (
              <Button variant="quiet" size="small" className="m-2" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                {w.more}
              </Button>
            )}
          </div>
          <div className="flex flex-wrap items-center justify-end gap-2 border-t border-line p-3">
            <Button onClick={close}>{w.close}</Button>
            {chosen ? (
              <SendTo key={chosen.chat_ref} chat={chosen} content={content} onSent={() => setSentTo(chosen)} />
            ) : (
              <Button variant="primary" disabled>
                {w.send}
              </Button>
            )}
          </div>
        </>
      )}
    </dialog>
  );
}
