// Fails when files import each other in a loop. Every import counts: static, dynamic, re-exports and
// type-only ones (`import type`, `import('./x').T`), since a loop of types still ties two files' meanings
// together. Run by `npm run lint`; `node scripts/check-imports.mjs [DIR]` prints each loop with the imports that
// close it, for the project of DIR/tsconfig.json (this repository by default).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..'));
const configPath = path.join(root, 'tsconfig.json');
const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, root);
const options = parsed.options;
const host = ts.createCompilerHost(options);

const isOwn = (file) => !file.includes(`${path.sep}node_modules${path.sep}`) && file.startsWith(root + path.sep);
const files = parsed.fileNames.filter(isOwn).map((f) => path.resolve(f));

/** file -> [{ to, line }] */
const graph = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const lineStarts = ts.computeLineStarts(text);
  const edges = [];
  for (const ref of info.importedFiles) {
    const resolved = ts.resolveModuleName(ref.fileName, file, options, host).resolvedModule;
    if (!resolved || resolved.isExternalLibraryImport) continue;
    const to = path.resolve(resolved.resolvedFileName);
    if (!isOwn(to) || to === file) continue;
    edges.push({ to, line: ts.computeLineAndCharacterOfPosition(lineStarts, ref.pos).line + 1 });
  }
  graph.set(file, edges);
}

// Tarjan's strongly connected components: each component of more than one file is a loop.
let index = 0;
const stack = [];
const state = new Map();
const loops = [];
function visit(v) {
  const s = { index, low: index, onStack: true };
  index++;
  state.set(v, s);
  stack.push(v);
  for (const { to } of graph.get(v) ?? []) {
    if (!graph.has(to)) continue;
    const w = state.get(to);
    if (!w) {
      visit(to);
      s.low = Math.min(s.low, state.get(to).low);
    } else if (w.onStack) s.low = Math.min(s.low, w.index);
  }
  if (s.low === s.index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) loops.push(component);
  }
}
for (const file of graph.keys()) if (!state.has(file)) visit(file);

const rel = (f) => path.relative(root, f);
if (!loops.length) {
  process.stdout.write(`No import loops among ${files.length} files.\n`);
  process.exit(0);
}
process.stderr.write(
  `${loops.length} import loop(s): move what both files need into a file that neither imports back.\n`,
);
for (const component of loops) {
  const members = new Set(component);
  process.stderr.write(`\n${component.length} files:\n`);
  for (const file of [...component].sort()) {
    for (const { to, line } of graph.get(file)) {
      if (members.has(to)) process.stderr.write(`  ${rel(file)}:${line} imports ${rel(to)}\n`);
    }
  }
}
process.exit(1);
