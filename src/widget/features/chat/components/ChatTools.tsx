import { ChatSearch } from './ChatSearch.tsx';
import { MarkAnswered } from './MarkAnswered.tsx';

/** The open chat's tools at the header's end: mark it answered while it waits, and search its messages. */
export function ChatTools({ chatRef, waiting }: { chatRef: string; waiting: boolean }) {
  return (
    <div className="ml-auto flex flex-none items-center gap-1">
      <MarkAnswered chatRef={chatRef} waiting={waiting} />
      <ChatSearch chatRef={chatRef} />
    </div>
  );
}
