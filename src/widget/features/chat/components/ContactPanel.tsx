import type { BffChat } from '../../../../contract/bff-chats.ts';
import { Button } from '@/components/ui/Button.tsx';
import { ErrorNote } from '@/components/ui/ErrorNote.tsx';
import { useLang } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useAskCrm, useDealOpened, type CrmKind } from '../api/ask-crm.ts';
import { useChatCrm } from '../api/get-chat-crm.ts';
import { crmWords } from '../crm-words.ts';

/** A CRM record's name, a link to it in the CRM (a new tab: the frame must not navigate away) when it has one. */
function CrmLink({ name, uri, opens, onOpen }: { name: string; uri: string | null; opens: (name: string) => string; onOpen?: () => void }) {
  if (!uri) return <span className="font-medium text-text">{name}</span>;
  return (
    <a className="font-medium text-accent underline-offset-2 hover:underline" href={uri} target="_blank" rel="noopener noreferrer" aria-label={opens(name)} onClick={onOpen}>
      {name}
    </a>
  );
}

/** Asking the CRM to create a contact or a deal for the chat, with what came of it. */
function AskButton({ kind, chat }: { kind: CrmKind; chat: BffChat }) {
  const lang = useLang();
  const w = crmWords[lang];
  const ask = useAskCrm(kind, chat);
  return (
    <>
      <Button size="small" onClick={() => ask.mutate()} disabled={ask.isPending} aria-busy={ask.isPending}>
        {ask.isPending ? w.asking : kind === 'contact' ? w.createContact : w.createDeal}
      </Button>
      <span role="status" className="text-ok">
        {ask.isSuccess ? (kind === 'contact' ? w.askedContact : w.askedDeal) : ''}
      </span>
      {ask.isError && (
        <ErrorNote className="basis-full" onDismiss={() => ask.reset()} dismissLabel={w.dismiss}>
          <strong>{w.notAsked}</strong> {refusalOf(ask.error, {}, lang).message}
        </ErrorNote>
      )}
    </>
  );
}

/** The chat's contact in the CRM and its open deals, under the chat's header; or the way to ask the CRM for them. */
export function ContactPanel({ chat }: { chat: BffChat }) {
  const w = crmWords[useLang()];
  const crm = useChatCrm(chat.chat_ref);
  const card = crm.data;
  const openedDeal = useDealOpened(chat);
  return (
    <section className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line bg-panel px-3 py-1.5 text-xs text-muted" aria-label={w.label}>
      {crm.isPending && <span role="status">{w.loading}</span>}
      {crm.isError && (
        <>
          <span>{w.loadFailed}</span>
          <Button size="small" variant="quiet" onClick={() => void crm.refetch()}>
            {w.tryAgain}
          </Button>
        </>
      )}
      {card && !card.contact && (
        <>
          <span>{w.noContact}</span>
          <AskButton kind="contact" chat={chat} />
        </>
      )}
      {card?.contact && (
        <>
          <span className="flex min-w-0 items-center gap-1">
            {w.contact} <CrmLink name={card.contact.name} uri={card.contact.uri} opens={w.opens} />
          </span>
          {card.deals.length === 0 ? (
            <span>{w.noDeals}</span>
          ) : (
            <span className="flex min-w-0 flex-wrap items-center gap-x-2">
              <span id={`deals-${chat.chat_ref}`}>{w.deals(card.deals.length)}:</span>
              <ul className="m-0 flex list-none flex-wrap gap-x-2 p-0" aria-labelledby={`deals-${chat.chat_ref}`}>
                {card.deals.map((deal) => (
                  <li key={deal.id}>
                    <CrmLink name={deal.name} uri={deal.uri} opens={w.opens} onOpen={() => openedDeal(deal)} />
                  </li>
                ))}
              </ul>
            </span>
          )}
          <AskButton kind="deal" chat={chat} />
        </>
      )}
    </section>
  );
}
