import { describe, expect, it } from 'vitest';
import { browserLang, catalog, langOf, plural } from './i18n.ts';

describe('the frame’s language', () => {
  it('is picked by the primary subtag, and falls back to English', () => {
    expect(langOf('ru')).toBe('ru');
    expect(langOf('ru-RU')).toBe('ru');
    expect(langOf('RU')).toBe('ru');
    expect(langOf('en-GB')).toBe('en');
    expect(langOf('es-MX')).toBe('es');
    expect(langOf('pt-BR')).toBe('pt');
    expect(langOf('de')).toBe('en');
    expect(langOf('')).toBe('en');
    expect(langOf(undefined)).toBe('en');
  });

  it('before a session, is the first of the browser’s languages the frame speaks', () => {
    expect(browserLang(['de-DE', 'ru-RU', 'en'])).toBe('ru');
    expect(browserLang(['de-DE', 'en-US', 'ru'])).toBe('en');
    expect(browserLang(['fr', 'pt-BR', 'es'])).toBe('pt');
    expect(browserLang(['fr'])).toBe('en');
    expect(browserLang([])).toBe('en');
  });
});

describe('plural forms', () => {
  const ru = { one: '# сообщение', few: '# сообщения', many: '# сообщений', other: '# сообщения' };
  const en = { one: '# message', other: '# messages' };

  it('follow each language’s rules', () => {
    expect([1, 2, 5, 11, 21, 22, 25, 101].map((n) => plural('ru', n, ru))).toEqual([
      '1 сообщение',
      '2 сообщения',
      '5 сообщений',
      '11 сообщений',
      '21 сообщение',
      '22 сообщения',
      '25 сообщений',
      '101 сообщение',
    ]);
    expect([0, 1, 2].map((n) => plural('en', n, en))).toEqual(['0 messages', '1 message', '2 messages']);
  });

  it('write the count as the language does, and take `other` where a form is not given', () => {
    expect(plural('en', 12_345, en)).toBe('12,345 messages');
    expect(plural('ru', 12_345, ru)).toBe('12\u00a0345 сообщений');
    expect(plural('ru', 3, { other: '# шт.' })).toBe('3 шт.');
    expect(plural('es', 12_345, { one: '# mensaje', other: '# mensajes' })).toBe('12.345 mensajes');
    expect(plural('pt', 1, { one: '# mensagem', other: '# mensagens' })).toBe('1 mensagem');
  });
});

describe('catalogs', () => {
  it('hold every language, English as written', () => {
    const words = catalog({ hello: 'Hello', count: (n: number) => `${n} new` }, {
      ru: { hello: 'Здравствуйте', count: (n) => `${n} новых` },
      es: { hello: 'Hola', count: (n) => `${n} nuevos` },
      pt: { hello: 'Olá', count: (n) => `${n} novos` },
    });
    expect(words.en.hello).toBe('Hello');
    expect(words.ru.count(3)).toBe('3 новых');
  });
});
