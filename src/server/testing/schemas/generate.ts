/**
 * Makes the JSON Schema fixtures the emulators check against (telegram.json, max.json, vk.json, wapi.json, wapi-numbers.json) from the platforms'
 * types as npm packages publish them, by ts-json-schema-generator: the aliases in `sources.ts` and what they refer
 * to, no prose. Run by hand after updating a package (see the README): `npx node src/server/testing/schemas/generate.ts`.
 * The tests read the committed JSON; they never run this.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';
import ts from 'typescript';

type Json = Record<string, unknown>;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const root = here('../../../../');

/** The Bot API methods the telegram driver calls. */
const TELEGRAM_METHODS = ['getMe', 'setWebhook', 'getWebhookInfo', 'deleteWebhook', 'sendMessage', 'sendPhoto', 'sendVideo', 'sendAudio', 'sendDocument', 'editMessageText', 'editMessageCaption', 'editMessageMedia', 'deleteMessage', 'answerCallbackQuery', 'getFile'];

/**
 * @grammyjs/types declares each method as a function of its parameters returning its result: each is written out as
 * two aliases (`TelegramParams_<method>`, `TelegramResult_<method>`) of the declaration's own text, in a file of the
 * moment beside this one, with the imports the declarations use. A file parameter (`F`) is a string: a file_id, an
 * address, or in a form `attach://<part>`.
 */
function telegramSource(): string {
  const file = `${root}node_modules/@grammyjs/types/methods.d.ts`;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const lines: string[] = [];
  const exported: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) lines.push(statement.getText().replace(/"\.\/(\w+)\.js"/, "'@grammyjs/types/$1.js'"));
    else if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && statement.name.text !== 'ApiMethods') exported.push(statement.name.text);
  }
  lines.push(`import type { ${exported.join(', ')} } from '@grammyjs/types/methods.js';`, `import type { Update } from '@grammyjs/types/update.js';`, 'export type TelegramUpdate = Update;');
  const api = source.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'ApiMethods')!;
  const members = new Map((api.type as ts.TypeLiteralNode).members.filter(ts.isMethodSignature).map((m) => [m.name.getText(), m]));
  for (const name of TELEGRAM_METHODS) {
    const method = members.get(name);
    if (!method) throw new Error(`@grammyjs/types has no method ${name}`);
    const params = method.parameters[0]?.type?.getText() ?? '{}';
    lines.push(`type P_${name}<F> = ${params};`, `export type TelegramParams_${name} = P_${name}<string>;`);
    lines.push(`type R_${name}<F> = ${method.type!.getText()};`, `export type TelegramResult_${name} = R_${name}<string>;`);
  }
  return `${lines.join('\n')}\n`;
}

/** Each fixture: the package its types come from, the file of its aliases and their prefix. */
const TELEGRAM_FILE = here('./telegram-methods.generated.ts');
const FIXTURES = [
  { file: 'telegram.json', prefix: 'Telegram', pkg: '@grammyjs/types', path: TELEGRAM_FILE },
  { file: 'max.json', prefix: 'Max', pkg: '@maxhub/max-bot-api', path: here('./sources.ts') },
  { file: 'vk.json', prefix: 'Vk', pkg: 'vk-io', path: here('./sources.ts') },
  { file: 'wapi.json', prefix: 'Wapi', pkg: 'whatsapp-api-js', path: here('./wapi-sources.ts') },
  { file: 'wapi-numbers.json', prefix: 'WhatsAppNumbers', pkg: '@great-detail/whatsapp', path: here('./wapi-sources.ts') },
];

const generatorOf = (path: string) =>
  createGenerator({
    path,
    tsconfig: `${root}tsconfig.json`,
    expose: 'export',
    topRef: false,
    jsDoc: 'none',
    // An object takes no property its type does not name (an index signature, where a type has one, still opens it).
    additionalProperties: false,
    skipTypeCheck: true,
    sortProps: true,
  });

const isEmptyObject = (v: unknown) => JSON.stringify(v) === JSON.stringify({ type: 'object', additionalProperties: false, properties: {} });
/**
 * An enum of no members (MAX's `UserLocale`: its client lists no locales) would take nothing: it takes any string, as
 * a locale is one. `NonNullable<T>` is `T & {}` in TypeScript, where `{}` is anything but null: the generator makes of that `{}` an
 * object of no properties, which an array or a string can never be. Such members of an `allOf` are left out.
 */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== 'object' || value === null) return value;
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tidy(v)])) as Json;
  if (Array.isArray(out.enum) && out.enum.length === 0) return { type: 'string' };
  if (Array.isArray(out.allOf)) {
    const members = out.allOf.filter((m) => !isEmptyObject(m));
    if (members.length === 1 && Object.keys(out).length === 1) return members[0];
    out.allOf = members;
  }
  return out;
}

/** Each alias as a definition of its own name, beside the definitions it refers to (one of each name per fixture). */
function definitionsOf(path: string, prefix: string): Record<string, Json> {
  const generator = generatorOf(path);
  const aliases = [...readFileSync(path, 'utf8').matchAll(/^export type (\w+)/gm)].map((m) => m[1]!);
  const definitions: Record<string, Json> = {};
  for (const alias of aliases.filter((a) => a.startsWith(prefix))) {
    const { definitions: referred = {}, $schema: _, ...own } = generator.createSchema(alias) as Json & { definitions?: Record<string, Json> };
    for (const [name, definition] of Object.entries({ ...referred, [alias]: own })) {
      if (definitions[name] && JSON.stringify(definitions[name]) !== JSON.stringify(definition)) throw new Error(`${prefix}: two types named ${name}`);
      definitions[name] = tidy(definition) as Json;
    }
  }
  return definitions;
}

writeFileSync(TELEGRAM_FILE, telegramSource());
try {
for (const { file, prefix, pkg, path } of FIXTURES) {
  const manifest = JSON.parse(readFileSync(`${root}node_modules/${pkg}/package.json`, 'utf8')) as { version: string; license: string };
  const definitions = definitionsOf(path, prefix);
  const fixture = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    source: { package: pkg, version: manifest.version, license: manifest.license, generator: 'ts-json-schema-generator, by src/server/testing/schemas/generate.ts' },
    definitions: Object.fromEntries(Object.keys(definitions).sort().map((name) => [name, definitions[name]])),
  };
  writeFileSync(here(`./${file}`), `${JSON.stringify(fixture, null, 1)}\n`);
  console.log(`${file}: ${Object.keys(definitions).length} definitions (${pkg} ${manifest.version}, ${manifest.license})`);
}
} finally {
  rmSync(TELEGRAM_FILE);
}
