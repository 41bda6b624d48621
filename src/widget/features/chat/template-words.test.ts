import { describe, expect, it } from 'vitest';
import { templateWords } from './template-words.ts';

describe('what the chat screen says of a closed reply window', () => {
  it('counts the hours in each language’s forms', () => {
    expect(templateWords.en.templates.windowClosed(24)).toBe('The customer has not written in the last 24 hours: only a template can reach them now.');
    expect(templateWords.en.templates.windowClosed(1)).toContain('in the last hour:');
    expect(templateWords.ru.templates.windowClosed(24)).toBe('Клиент не писал последние 24 часа: сейчас до него дойдёт только сообщение по шаблону.');
    expect(templateWords.ru.templates.windowClosed(21)).toContain('последний 21 час:');
    expect(templateWords.ru.templates.windowClosed(48)).toContain('последние 48 часов:');
  });
});
