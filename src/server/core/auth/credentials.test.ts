import { describe, expect, it } from 'vitest';
import { basicCredentials } from '../../../contract/authorization.ts';
import { scopesOfRoute } from '../../http/plugins/route-scopes.ts';
import { AppError } from '../errors.ts';
import { mintOpaque, parseOpaque } from './opaque-token.ts';
import { narrowed, parseScopes } from './scopes.ts';

describe('OAuth credentials and scopes', () => {
  it('reads scopes written with commas or spaces, and refuses unknown ones as invalid_scope', () => {
    expect(parseScopes('transport,crm')).toEqual(['transport', 'crm']);
    expect(parseScopes('crm transport')).toEqual(['transport', 'crm']);
    expect(parseScopes(undefined)).toEqual(['transport', 'crm']);
    expect(() => parseScopes('transport,admin')).toThrow(expect.objectContaining({ code: 'invalid_scope' }));
    expect(() => narrowed(['transport', 'crm'], ['transport'])).toThrow(AppError);
  });

  it('keeps access, refresh and code tokens apart by their prefix', () => {
    const access = mintOpaque('mga');
    expect(parseOpaque(access.token, 'mga')?.id).toBe(access.id);
    expect(parseOpaque(access.token, 'mgr')).toBeNull();
    expect(parseOpaque(access.token.replace('mga_', 'mgw_'), 'mga')).toBeNull();
    expect(parseOpaque(`${access.token}x`, 'mga')).toBeNull();
  });

  it('reads Basic credentials in UTF-8 with a colon inside the secret', () => {
    const header = `Basic ${Buffer.from('acme:s3cr:et ü').toString('base64')}`;
    expect(basicCredentials(header)).toEqual({ login: 'acme', secret: 's3cr:et ü' });
    expect(basicCredentials(`basic ${Buffer.from(':x').toString('base64')}`)).toBeNull();
    expect(basicCredentials('Bearer abc')).toBeNull();
    expect(basicCredentials(`Basic ${Buffer.from([0x61, 0x3a, 0xff]).toString('base64')}`)).toBeNull();
  });

  it('names the scope each /v2 route needs', () => {
    expect(scopesOfRoute('/v2/channels/:channel_id')).toEqual(['transport']);
    expect(scopesOfRoute('/v2/channels/waba/:channel_id/transactions/:date')).toEqual(['transport']);
    expect(scopesOfRoute('/v2/iframe-links/chats')).toEqual(['crm']);
    expect(scopesOfRoute('/v2/iframe-links/channels')).toEqual(['crm', 'transport']);
    expect(scopesOfRoute('/v2/users')).toEqual(['crm']);
    expect(scopesOfRoute('/v2/sandbox/channels/:channel_id/chats/:chat_type/:chat_id/messages')).toEqual(['crm']);
    expect(scopesOfRoute('/v2/sandbox/channels/:channel_id/scan')).toEqual(['transport']);
    expect(scopesOfRoute('/v2/webhooks')).toEqual([]);
  });
});
