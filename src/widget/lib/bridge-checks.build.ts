/**
 * Build step (a Vite plugin): the host bridge's message checks, compiled from the contract's TypeBox schemas when
 * the widget is built. The frame then ships a few hundred lines of plain checks instead of TypeBox's whole
 * value checker, and the checks stay exactly the contract's: a message is refused as strictly as the gateway
 * would refuse it, and a change to the contract changes the checks with the next build.
 *
 *   import { Check } from 'virtual:bridge-check/host-to-frame';   // or frame-to-host
 */
import { Code } from 'typebox/compile';
import type { Plugin } from 'vite';
import { FrameToHostMessage, HostToFrameMessage } from '../../contract/bridge.ts';

const prefix = 'virtual:bridge-check/';
const schemas = { 'host-to-frame': HostToFrameMessage, 'frame-to-host': FrameToHostMessage } as const;

/** The generated module, with the values it refers to (regular expressions) written into it as literals. */
export function checkModule(name: keyof typeof schemas): string {
  const { Code: code, External } = Code(schemas[name]);
  const values = (External.variables as unknown[]).map((v) => {
    if (v instanceof RegExp) return v.toString();
    throw new Error(`a bridge check refers to a value that cannot be written into code: ${String(v)}`);
  });
  const declaration = /let External = \[\]/;
  if (!declaration.test(code)) throw new Error('the generated bridge check no longer declares its values as expected');
  const module = code.replace(declaration, `let External = [${values.join(', ')}]`);
  // The generator imports its helpers whether or not these checks call them; one left unused would still be
  // bundled for its module's top-level work.
  return module.replace(/^import \{ (\w+) \} from "[^"]+"\n/gm, (line, name: string) => (module.split(name).length > 2 ? line : ''));
}

export function bridgeChecks(): Plugin {
  return {
    name: 'bridge-checks',
    resolveId: (id) => (id.startsWith(prefix) && id.slice(prefix.length) in schemas ? `\0${id}` : null),
    load: (id) => (id.startsWith(`\0${prefix}`) ? checkModule(id.slice(prefix.length + 1) as keyof typeof schemas) : null),
  };
}
