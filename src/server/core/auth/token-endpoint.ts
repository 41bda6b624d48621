import { AppError } from '../errors.ts';
import { redeemCode } from './authorization-codes.ts';
import { refreshGrant, startGrant, type Caller, type TokenSet } from './grants.ts';
import { MACHINE_TOKEN_SECONDS, MACHINE_TOKEN_TYPE, signMachineToken, verifyMachineToken } from './machine-token.ts';
import { partnerAccount } from './partner-accounts.ts';
import type { AuthDeps } from './ports.ts';
import { narrowed, parseScopes, scopeText } from './scopes.ts';

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

export type MachineTokenSet = Pick<TokenSet, 'access_token' | 'token_type' | 'expires_in' | 'scope'>;

type Fields = Record<string, unknown>;

/** The grant's own object (`client_credentials_data`…), or the body's top level where a client sends it flat. */
const dataOf = (body: Fields, ...names: string[]): Fields => {
  for (const name of names) {
    const v = body[name];
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Fields;
  }
  return body;
};

/** `POST /v2/oauth/token`: one grant type at a time, errors named as OAuth 2.0 names them. */
export async function grantTokens(deps: AuthDeps, caller: Caller, body: Fields): Promise<TokenSet | MachineTokenSet> {
  const issuer = deps.publicUrl;
  switch (body.grant_type) {
    case 'client_credentials': {
      const scopes = parseScopes(dataOf(body, 'client_credentials_data').scope);
      const token = await signMachineToken(deps.machineKey, issuer, { partnerId: caller.partnerId, scopes }, deps.clock.now());
      return { access_token: token, token_type: 'Bearer', expires_in: MACHINE_TOKEN_SECONDS, scope: scopeText(scopes) };
    }
    case TOKEN_EXCHANGE: {
      const data = dataOf(body, 'token_exchange_data');
      if (typeof data.subject_token !== 'string') throw new AppError('invalid_request', 'token_exchange_data.subject_token is required');
      if (data.subject_token_type !== MACHINE_TOKEN_TYPE) throw new AppError('invalid_request', `subject_token_type must be ${MACHINE_TOKEN_TYPE}`);
      const subject = data.requested_subject;
      if (typeof subject !== 'string' && typeof subject !== 'number') throw new AppError('invalid_request', 'token_exchange_data.requested_subject (the account_id) is required');
      const machine = await verifyMachineToken(deps.machineKey, issuer, data.subject_token, deps.clock.now());
      if (machine.partnerId !== caller.partnerId) throw new AppError('invalid_grant', 'The machine token was issued to another partner');
      const account = await partnerAccount(deps.auth, caller, subject).catch(() => {
        throw new AppError('invalid_grant', 'No account with this id was created by this partner');
      });
      const scopes = narrowed(parseScopes(data.scope, machine.scopes), machine.scopes);
      return startGrant(deps, { accountId: account.accountId, partnerId: caller.partnerId, clientId: null, scopes });
    }
    case 'authorization_code':
      return redeemCode(deps, caller, dataOf(body, 'authorize_code_data', 'authorization_code_data'));
    case 'refresh_token': {
      const data = dataOf(body, 'refresh_token_data');
      if (typeof data.refresh_token !== 'string') throw new AppError('invalid_request', 'refresh_token_data.refresh_token is required');
      return refreshGrant(deps, caller, data.refresh_token, typeof data.client_id === 'string' ? data.client_id : undefined);
    }
    case undefined:
      throw new AppError('invalid_request', 'grant_type is required');
    default:
      throw new AppError('unsupported_grant_type', `Unsupported grant_type: ${String(body.grant_type)}`);
  }
}
