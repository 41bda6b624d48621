/**
 * Build step (a Vite plugin): the emoji picker's data (Emojibase's, one folder per language the frame speaks) is
 * served by the gateway itself at `/emoji/<lang>/data.json` and `messages.json`, so the picker fetches nothing from a
 * third party (the frame's policy would refuse it anyway) and costs nothing until it is first opened.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/** Where the frame finds the files; the picker asks for `${emojiDataPath}/<lang>/<file>.json`. */
export const emojiDataPath = '/emoji';
const FILES = ['data', 'messages'] as const;

const dataDir = () => dirname(createRequire(import.meta.url).resolve('emojibase-data/package.json'));

export function emojiData(langs: readonly string[]): Plugin {
  const read = (lang: string, file: string) => readFileSync(join(dataDir(), lang, `${file}.json`));
  return {
    name: 'emoji-data',
    generateBundle() {
      for (const lang of langs) for (const file of FILES) this.emitFile({ type: 'asset', fileName: `emoji/${lang}/${file}.json`, source: read(lang, file) });
    },
    configureServer(server) {
      server.middlewares.use(emojiDataPath, (req, res, next) => {
        const [, lang, name] = (req.url ?? '').split('?')[0]!.split('/');
        const file = name?.replace(/\.json$/, '');
        if (!lang || !langs.includes(lang) || !FILES.includes(file as (typeof FILES)[number])) return next();
        res.setHeader('content-type', 'application/json');
        res.end(read(lang, file!));
      });
    },
  };
}
