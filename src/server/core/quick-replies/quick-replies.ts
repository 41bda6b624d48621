import type { QuickReply, QuickReplyInput, QuickReplyList } from '../../../contract/bff-quick-replies.ts';
import { MAX_QUICK_REPLIES } from '../../../contract/bff-quick-replies.ts';
import { AppError, validationError } from '../errors.ts';
import type { Clock } from '../ports.ts';
import type { RightsRepository } from '../rights/ports.ts';

/** The account's saved answers, as kept. Every call names the account: one account never reads another's. */
export interface QuickReplyRepository {
  list(accountId: string): Promise<QuickReply[]>;
  count(accountId: string): Promise<number>;
  /** Null when the account already has a reply with this shortcut (in any case). */
  create(accountId: string, input: QuickReplyInput, at: Date): Promise<QuickReply | null>;
  /** `missing` when the account has no such reply; `taken` when another of its replies has the shortcut. */
  update(accountId: string, id: string, input: QuickReplyInput, at: Date): Promise<QuickReply | 'missing' | 'taken'>;
  delete(accountId: string, id: string): Promise<boolean>;
}

interface Deps {
  quickReplies: QuickReplyRepository;
  rights: Pick<RightsRepository, 'userRights'>;
  clock: Clock;
}

/**
 * Who may add, change and delete the account's quick replies: anyone while the account sets no roles (or the link
 * names no user), else a `manager` of at least one channel. Sellers and auditors use them as they are.
 */
export async function mayManage(rights: Deps['rights'], accountId: string, userId: string | null): Promise<boolean> {
  const { anyRoles, own } = await rights.userRights(accountId, userId);
  return !anyRoles || userId === null || own.some((r) => r.role === 'manager');
}

const notFound = () => new AppError('NOT_FOUND', 'Quick reply not found');
const taken = (shortcut: string) => validationError([{ field: 'body.shortcut', message: `is already the shortcut of another quick reply (/${shortcut})` }], 'Shortcut already used');

async function assertMayManage(deps: Deps, accountId: string, userId: string | null): Promise<void> {
  if (!(await mayManage(deps.rights, accountId, userId))) throw new AppError('FORBIDDEN', 'Only a manager of a channel changes the account’s quick replies');
}

export async function listQuickReplies(deps: Deps, accountId: string, userId: string | null): Promise<QuickReplyList> {
  const [replies, manage] = await Promise.all([deps.quickReplies.list(accountId), mayManage(deps.rights, accountId, userId)]);
  return { replies, may_manage: manage, max: MAX_QUICK_REPLIES };
}

export async function createQuickReply(deps: Deps, accountId: string, userId: string | null, input: QuickReplyInput): Promise<QuickReply> {
  await assertMayManage(deps, accountId, userId);
  if ((await deps.quickReplies.count(accountId)) >= MAX_QUICK_REPLIES) {
    throw new AppError('TOO_MANY_ENTITIES', `An account keeps at most ${MAX_QUICK_REPLIES} quick replies: delete one first`, { max: MAX_QUICK_REPLIES });
  }
  const created = await deps.quickReplies.create(accountId, input, deps.clock.now());
  if (!created) throw taken(input.shortcut);
  return created;
}

export async function updateQuickReply(deps: Deps, accountId: string, userId: string | null, id: string, input: QuickReplyInput): Promise<QuickReply> {
  await assertMayManage(deps, accountId, userId);
  const updated = await deps.quickReplies.update(accountId, id, input, deps.clock.now());
  if (updated === 'missing') throw notFound();
  if (updated === 'taken') throw taken(input.shortcut);
  return updated;
}

export async function deleteQuickReply(deps: Deps, accountId: string, userId: string | null, id: string): Promise<void> {
  await assertMayManage(deps, accountId, userId);
  if (!(await deps.quickReplies.delete(accountId, id))) throw notFound();
}
