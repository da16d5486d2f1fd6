/** RFC 6902 JSON Patch operations, applied in place to a parsed manifest (what kustomize's patches do). */
export interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'test' | 'move' | 'copy';
  path: string;
  value?: unknown;
  from?: string;
}

function pointer(path: string): string[] {
  if (path === '' || !path.startsWith('/')) throw new Error(`"${path}" is not a JSON pointer below the document root`);
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: Record<string, unknown>, tokens: string[]): unknown {
  let node: unknown = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(t)];
    else if (node !== null && typeof node === 'object') node = (node as Record<string, unknown>)[t];
    else node = undefined;
    if (node === undefined) throw new Error(`no value at /${tokens.join('/')}`);
  }
  return node;
}

function getAt(doc: Record<string, unknown>, path: string): unknown {
  const tokens = pointer(path);
  const parent = parentOf(doc, tokens);
  const last = tokens.at(-1) ?? '';
  const value: unknown = Array.isArray(parent)
    ? (parent as unknown[])[Number(last)]
    : (parent as Record<string, unknown>)[last];
  if (value === undefined) throw new Error(`no value at ${path}`);
  return value;
}

function arrayIndex(arr: unknown[], token: string, forInsert: boolean): number {
  if (forInsert && token === '-') return arr.length;
  const i = Number(token);
  if (!/^\d+$/.test(token) || i > arr.length || (!forInsert && i === arr.length))
    throw new Error(`index ${token} is out of range`);
  return i;
}

export function applyOp(doc: Record<string, unknown>, op: JsonPatchOp): void {
  if (op.op === 'move' || op.op === 'copy') {
    const value = structuredClone(getAt(doc, op.from ?? ''));
    if (op.op === 'move') applyOp(doc, { op: 'remove', path: op.from ?? '' });
    applyOp(doc, { op: 'add', path: op.path, value });
    return;
  }
  const tokens = pointer(op.path);
  const parent = parentOf(doc, tokens);
  const last = tokens.at(-1) ?? '';
  if (op.op === 'test') {
    if (JSON.stringify(getAt(doc, op.path)) !== JSON.stringify(op.value)) throw new Error('test failed');
    return;
  }
  if (Array.isArray(parent)) {
    const i = arrayIndex(parent, last, op.op === 'add');
    if (op.op === 'add') parent.splice(i, 0, structuredClone(op.value));
    else if (op.op === 'remove') parent.splice(i, 1);
    else if (op.op === 'replace') parent[i] = structuredClone(op.value);
    else throw new Error(`unknown op ${String(op.op)}`);
    return;
  }
  if (parent === null || typeof parent !== 'object') throw new Error(`no object at the parent of ${op.path}`);
  const obj = parent as Record<string, unknown>;
  if (op.op === 'add') obj[last] = structuredClone(op.value);
  else if (op.op === 'remove' || op.op === 'replace') {
    if (!(last in obj)) throw new Error(`no value at ${op.path}`);
    if (op.op === 'remove') delete obj[last];
    else obj[last] = structuredClone(op.value);
  } else throw new Error(`unknown op ${String(op.op)}`);
}
