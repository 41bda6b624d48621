import type { FailureReason } from '../../../contract/messages.ts';
import { TransientSendError, type SendOutcome } from '../../core/messages/ports.ts';
import { DeadlinePassed } from '../bot-common.ts';
import { GraphApiError, GraphApiUnreachable } from './graph-api.ts';

/** How one product reads Meta's refusals: the interface's reason (null: try again), the wait asked, a refused token. */
export interface GraphRefusals {
  failureOf(err: GraphApiError): FailureReason | null;
  waitAsked(err: GraphApiError): number | null;
  isTokenRefused(err: unknown): boolean;
}

/**
 * What a send that threw against the Graph API comes to: tried again later (its deadline passed, Meta out of reach,
 * or a refusal worth another try, no sooner than Meta asked), or failed with the interface's reason, a refused token
 * switching the channel off first (`revoke`). Anything that is not Meta's answer is thrown as it is.
 */
export async function graphSendFailure(
  err: unknown,
  context: { deadline: AbortSignal; budgetMs: number; refusals: GraphRefusals; revoke: () => Promise<void> | undefined },
): Promise<SendOutcome> {
  // Whatever failed as the deadline passed failed because of it.
  if (context.deadline.aborted || err instanceof DeadlinePassed) throw new TransientSendError(`the send did not finish within ${context.budgetMs / 1000} s`);
  if (err instanceof GraphApiUnreachable) throw new TransientSendError(err.message);
  if (!(err instanceof GraphApiError)) throw err;
  const reason = context.refusals.failureOf(err);
  if (reason === null) throw new TransientSendError(`Meta answered ${err.status}: (#${err.code}) ${err.message}`, context.refusals.waitAsked(err));
  if (context.refusals.isTokenRefused(err)) await context.revoke();
  return { kind: 'failed', reason };
}
