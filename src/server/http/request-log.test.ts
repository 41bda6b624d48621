import { describe, expect, it } from 'vitest';
import { loggedRequest, withoutSecrets } from './request-log.ts';

describe('requests as the log tells them', () => {
  it('takes the secret out of a hook’s address, wherever it stands in the query, and leaves other addresses alone', () => {
    expect(withoutSecrets('/hooks/avito/0b9a4c9e?secret=abc_DEF-123')).toBe('/hooks/avito/0b9a4c9e?secret=[redacted]');
    expect(withoutSecrets('/hooks/avito/x?a=1&SECRET=abc&b=2')).toBe('/hooks/avito/x?a=1&SECRET=[redacted]&b=2');
    expect(withoutSecrets('/v2/channels?delete_chats=true')).toBe('/v2/channels?delete_chats=true');
    expect(withoutSecrets('/hooks/telegram/x/files/f?not_a_secret=1&signature=s')).toBe('/hooks/telegram/x/files/f?not_a_secret=1&signature=s');
  });

  it('keeps the fields Fastify logs of a request', () => {
    const logged = loggedRequest({ method: 'POST', url: '/hooks/avito/c?secret=s', host: 'gw.example.com', ip: '10.0.0.1', headers: {}, socket: { remotePort: 4000 } });
    expect(logged).toEqual({ method: 'POST', url: '/hooks/avito/c?secret=[redacted]', version: undefined, host: 'gw.example.com', remoteAddress: '10.0.0.1', remotePort: 4000 });
  });
});
