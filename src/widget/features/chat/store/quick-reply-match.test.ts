import { describe, expect, it } from 'vitest';
import { matchReplies, slashQuery } from './quick-reply-match.ts';

const reply = (shortcut: string, text: string) => ({ id: shortcut, shortcut, text, updated_at: '2026-01-01T00:00:00.000Z' });

describe('quick replies in the composer', () => {
  it('are searched only while the box holds a slash and one word', () => {
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('/hel')).toBe('hel');
    expect(slashQuery('/hello there')).toBeNull();
    expect(slashQuery('see /hello')).toBeNull();
    expect(slashQuery('hello')).toBeNull();
    expect(slashQuery('')).toBeNull();
  });

  it('find shortcuts that start with the word first, then those that contain it, then texts', () => {
    const replies = [reply('address', 'We are at 1 Main St.'), reply('hello', 'Hello!'), reply('shipping', 'Ships in a day'), reply('thanks', 'Thank you, see you')];
    expect(matchReplies(replies, '').map((r) => r.shortcut)).toEqual(['address', 'hello', 'shipping', 'thanks']);
    expect(matchReplies(replies, 'S').map((r) => r.shortcut)).toEqual(['shipping', 'address', 'thanks']);
    expect(matchReplies(replies, 'main').map((r) => r.shortcut)).toEqual(['address']);
    expect(matchReplies(replies, 'zzz')).toEqual([]);
  });
});
