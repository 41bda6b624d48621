import type { PGlite } from '@electric-sql/pglite';

/** The parts of Emscripten's file system this module touches (PGlite does not type them). */
interface EmscriptenNode {
  parent: EmscriptenNode;
  name: string;
  name_next?: EmscriptenNode;
  id: number;
}
interface EmscriptenFs {
  nameTable: (EmscriptenNode | undefined)[];
  hashName(parentId: number, name: string): number;
  hashRemoveNode(node: EmscriptenNode): void;
  filesystems?: { NODEFS?: { node_ops: NodeOps } };
}
type NodeOps = { mknod(parent: EmscriptenNode, name: string, mode: number, dev: number): EmscriptenNode };

const PATCHED = Symbol.for('gateway.pglite.forgetsFailedCreates');

/**
 * Makes the embedded database's file layer forget a file it failed to create.
 *
 * Emscripten's NODEFS (the layer between PGlite and the data directory) adds a new file to its name cache before
 * it creates the file on disk, and leaves it there when the creation fails. A data directory that is read-only or
 * full for a moment (a relation's free-space map is made while it is) then breaks that relation for good: its
 * next creation answers "File exists" from the cache while opening it answers "No such file" from the disk, and
 * every write to the table fails until the process restarts, long after the directory is writable again. Dropping
 * the cached entry when the creation fails lets the next attempt ask the disk again.
 */
export function forgetFailedFileCreates(pglite: PGlite): void {
  const module = pglite.Module as unknown as { FS?: EmscriptenFs; NODEFS?: { node_ops: NodeOps } } | undefined;
  const fs = module?.FS;
  const ops = (module?.NODEFS ?? fs?.filesystems?.NODEFS)?.node_ops as (NodeOps & { [PATCHED]?: true }) | undefined;
  // In memory (tests) there is no NODEFS, and nothing on disk to fail.
  if (!fs || !ops || ops[PATCHED]) return;
  const create = ops.mknod;
  ops.mknod = function mknod(parent, name, mode, dev) {
    try {
      return create.call(this, parent, name, mode, dev);
    } catch (err) {
      for (let node = fs.nameTable[fs.hashName(parent.id, name)]; node; node = node.name_next) {
        if (node.parent === parent && node.name === name) {
          fs.hashRemoveNode(node);
          break;
        }
      }
      throw err;
    }
  };
  ops[PATCHED] = true;
}
