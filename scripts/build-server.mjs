// Compiles the API server ahead of time, so `npm start` runs plain JavaScript instead of transpiling
// TypeScript at every start: server/server.ts and what it imports from server/ and shared/ are bundled
// by esbuild into build/server/ (npm packages stay imports of node_modules).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const STAMP = '.build-stamp.json';
/** Inputs besides the bundled sources: a change in any of these rebuilds too. */
const ALSO = ['package-lock.json', 'tsconfig.json', 'scripts/build-server.mjs'];
const LOADERS = { '.ts': 'ts', '.tsx': 'tsx', '.mts': 'ts', '.js': 'js', '.mjs': 'js', '.json': 'json' };

export const serverDir = (root) => path.join(root, 'build', 'server');
export const serverEntry = (root) => path.join(serverDir(root), 'server.mjs');

const stamp = (root, file) => {
  try {
    const st = statSync(path.join(root, file));
    return `${file}:${st.size}:${st.mtimeMs}`;
  } catch {
    return `${file}:missing`;
  }
};
const digest = (lines) => createHash('sha256').update(lines.sort().join('\n')).digest('hex');

/** Whether build/server/ was compiled from the sources as they are now: one stat per input file, nothing read. */
export function serverIsCurrent(root) {
  const file = path.join(serverDir(root), STAMP);
  if (!existsSync(file) || !existsSync(serverEntry(root))) return false;
  try {
    const { inputs, fingerprint } = JSON.parse(readFileSync(file, 'utf8'));
    return digest(inputs.map((f) => stamp(root, f))) === fingerprint;
  } catch {
    return false;
  }
}

/**
 * Loads the project's own files for esbuild, noting each file's size and mtime as it is read (so the
 * stamp describes exactly what was compiled) and turning `import.meta.url` into the URL of the source
 * file: paths relative to a source (server/db/migrations, dist/) then resolve from the bundle as they
 * do from the source, wherever the checkout lives.
 */
function projectFiles(root, outDir, seen) {
  return {
    name: 'project-files',
    setup(b) {
      b.onLoad({ filter: /\.(m?[jt]sx?|json)$/ }, (args) => {
        const rel = path.relative(root, args.path).split(path.sep).join('/');
        if (rel.startsWith('..') || rel.includes('node_modules/')) return undefined;
        seen.set(rel, stamp(root, rel));
        let contents = readFileSync(args.path, 'utf8');
        const fromOut = path.relative(outDir, args.path).split(path.sep).join('/');
        contents = contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`);
        return { contents, loader: LOADERS[path.extname(args.path)] ?? 'default' };
      });
    },
  };
}

/** Compiles into a new directory and then swaps it in, so a server starting meanwhile never sees half a build. */
export async function buildServer(root) {
  const { build } = await import('esbuild');
  const outDir = serverDir(root);
  const tmp = `${outDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const seen = new Map(ALSO.map((f) => [f, stamp(root, f)]));
  await build({
    absWorkingDir: root,
    entryPoints: { server: 'server/server.ts' },
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    bundle: true,
    // Chunks: what server.ts imports with import() loads while the database opens.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    // Output paths are computed for outDir, where the files end up.
    plugins: [projectFiles(root, outDir, seen)],
  });
  writeFileSync(
    path.join(tmp, STAMP),
    JSON.stringify({ inputs: [...seen.keys()], fingerprint: digest([...seen.values()]) }),
  );
  mkdirSync(path.dirname(outDir), { recursive: true });
  rmSync(outDir, { recursive: true, force: true });
  renameSync(tmp, outDir);
}
