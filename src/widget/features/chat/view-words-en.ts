import type { FailureReason } from '../../../contract/messages.ts';

/** The English words for failure reasons are the gateway's codes, spaced (`bad contact`). */
const spacedCodes: Partial<Record<FailureReason, string>> = {};

/** What the open chat says in English: its header, the composer, the history, a message. */
export const en = {
  view: {
    label: (title: string) => `Chat with ${title}`,
    back: 'Back to the chat list',
    notDeleted: 'Not deleted.',
    noChannel: 'No connected channel can reach this contact.',
    sendThrough: 'Send through',
    chooseChannel: 'Choose a channel…',
    chooseChannelFirst: 'Choose the channel to write through.',
    noChannelToSend: 'This chat has no channel to send through.',
  },
  dismissError: 'Dismiss the error',
  composer: {
    notSaved: 'Not saved.',
    notSent: 'Not sent.',
    editing: 'Editing a message',
    cancel: 'Cancel',
    tooLong: (length: number, limit: number) => `${length.toLocaleString('en')} characters: this messenger takes at most ${limit.toLocaleString('en')}.`,
    label: 'Message',
    editedLabel: 'Edited message',
    placeholder: 'Write a message…',
    send: 'Send',
    save: 'Save',
    attach: 'Attach a file',
    replyingLabel: 'Replying to',
    cancelReply: 'Cancel the reply',
    captionLabel: 'Caption',
    captionPlaceholder: 'Add a caption…',
    fileLabel: (name: string) => `File to send: ${name}`,
    removeFile: (name: string) => `Cancel ${name}`,
    fileTooLarge: (name: string, mb: number) => `${name} is larger than ${mb} MB, the most a message can carry here.`,
  },
  history: {
    label: 'Message history',
    items: 'Messages',
    loading: 'Loading messages…',
    loadFailed: 'Could not load the messages',
    empty: 'No messages yet. Write the first one below.',
    loadingOlder: 'Loading earlier messages…',
    start: 'Start of the conversation',
    latest: '↓ Latest messages',
  },
  message: {
    earlier: 'Earlier message',
    you: 'You',
    contact: 'Contact',
    quoteDeleted: 'deleted',
    confirmLabel: 'Delete this message for everyone?',
    confirm: 'Delete for everyone?',
    delete: 'Delete',
    keep: 'Keep',
    editLabel: 'Edit message',
    edit: 'Edit',
    deleteLabel: 'Delete message',
    reply: 'Reply',
    replyLabel: 'Reply to this message',
    copy: 'Copy',
    copyLabel: 'Copy the text',
    toQuoted: 'Go to the quoted message',
    template: 'Template message',
    deleted: 'Deleted',
    edited: 'edited',
    failed: (reason: string | null) => `Not delivered${reason ? `: ${reason}` : ''}`,
    held: (why: string, until: string) => `Waits until ${until}: ${why}`,
    holds: {
      gap: 'a pause between messages',
      daily_cap: 'the number’s daily limit',
      first_contact_cap: 'the daily limit of new chats',
      quiet_hours: 'quiet hours',
      slowed_down: 'the messenger asked to slow down',
    } as Record<string, string>,
    retry: 'Send again',
    reasons: spacedCodes,
  },
};

/** The shape every language's words for the open chat take. */
export type ViewWords = typeof en;
