import { createContext, useCallback, useContext, useEffect, useRef } from 'react';

/**
 * The languages the frame speaks (English, Russian, and the original service's account languages Spanish and
 * Portuguese). A link's `options.lang` (or the host's `set_options`) picks one by its primary
 * subtag; any other language falls back to English, the catalogs' source.
 */
export const languages = ['en', 'ru', 'es', 'pt'] as const;
export type Lang = (typeof languages)[number];

/** `ru`, `ru-RU`, `RU` → `ru`; an unknown or missing tag → `en`. */
export function langOf(tag: string | null | undefined): Lang {
  const primary = (tag ?? '').split('-')[0]!.toLowerCase();
  return (languages as readonly string[]).includes(primary) ? (primary as Lang) : 'en';
}

/** The first language of the browser's list that the frame speaks (before a session says which one). */
export function browserLang(list: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): Lang {
  for (const tag of list) if (langOf(tag) !== 'en' || tag.toLowerCase().startsWith('en')) return langOf(tag);
  return 'en';
}

/**
 * One catalog per screen or module: English is written first and is the source; every other language must give
 * every entry with the same shape (the compiler checks it). Entries are strings, or functions for words that take
 * values (a name, a count).
 */
export function catalog<T extends object>(en: T, translations: { [L in Exclude<Lang, 'en'>]: NoInfer<T> }): Readonly<Record<Lang, T>> {
  return { en, ...translations };
}

type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const pluralRules = new Map<Lang, Intl.PluralRules>();

/**
 * A count with the word in the form the language wants for it (`#` stands for the count): English has one and
 * other, Russian one, few and many (1 сообщение, 2 сообщения, 5 сообщений).
 */
export function plural(lang: Lang, count: number, forms: PluralForms): string {
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(lang)));
  const form = forms[rules.select(count)] ?? forms.other;
  return form.replace('#', count.toLocaleString(lang));
}

const LangContext = createContext<Lang>('en');

/** Gives the screens below it their language (the frame's options provide it). */
export const LangProvider = LangContext.Provider;

/** The language of the screen being drawn. */
export function useLang(): Lang {
  return useContext(LangContext);
}

/** A catalog in the screen's language. */
export function useWords<T>(words: Readonly<Record<Lang, T>>): T {
  return words[useLang()];
}

/**
 * The screen's language as it is when asked, for effects and callbacks that must not run again (read a list
 * again, say) just because the host changed the language: what they say, they say in the language of the moment.
 */
export function useCurrentLang(): () => Lang {
  const lang = useLang();
  const current = useRef(lang);
  useEffect(() => {
    current.current = lang;
  }, [lang]);
  return useCallback(() => current.current, []);
}
