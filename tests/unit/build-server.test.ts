import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, serverEntry, serverIsCurrent } from '../../scripts/build-server.mjs';

/**
 * The compiled server `npm start` runs (scripts/build-server.mjs), on a small project of its own:
 * rebuilt when a source changes, and paths relative to a source resolve from the compiled output.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cw-build-server-'));
  dirs.push(root);
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write('package-lock.json', '{}');
  write('tsconfig.json', '{}');
  write('server/value.ts', 'export const value: number = 1;\n');
  write(
    'server/db/client.ts',
    "import { fileURLToPath } from 'node:url';\nexport const migrations = (): string => fileURLToPath(new URL('./migrations', import.meta.url));\n",
  );
  write(
    'server/server.ts',
    "import { migrations } from './db/client';\nconst { value } = await import('./value');\nprocess.stdout.write(JSON.stringify({ value, migrations: migrations() }));\n",
  );
  return root;
}

const run = (root: string) =>
  JSON.parse(execFileSync(process.execPath, [serverEntry(root)], { encoding: 'utf8' })) as {
    value: number;
    migrations: string;
  };

/** A later mtime than the build saw, as an editor saving the file a moment later would leave. */
function edit(root: string, file: string, text: string) {
  writeFileSync(path.join(root, file), text);
  const later = new Date(Date.now() + 5_000);
  utimesSync(path.join(root, file), later, later);
}

describe('the compiled server', () => {
  it('is rebuilt when a source it bundles changes, and only then', async () => {
    const root = project();
    expect(serverIsCurrent(root)).toBe(false);
    await buildServer(root);
    expect(serverIsCurrent(root)).toBe(true);
    expect(run(root).value).toBe(1);

    edit(root, 'server/value.ts', 'export const value: number = 2;\n');
    expect(serverIsCurrent(root)).toBe(false);
    await buildServer(root);
    expect(serverIsCurrent(root)).toBe(true);
    expect(run(root).value).toBe(2);

    // Not a source of the server: no rebuild.
    writeFileSync(path.join(root, 'server', 'notes.md'), 'not imported');
    expect(serverIsCurrent(root)).toBe(true);
    // The build's own inputs count too.
    edit(root, 'package-lock.json', '{"lockfileVersion":3}');
    expect(serverIsCurrent(root)).toBe(false);
  });

  it('resolves import.meta.url-relative paths to the source folder, wherever the checkout is moved', async () => {
    const root = project();
    await buildServer(root);
    expect(run(root).migrations).toBe(path.join(root, 'server', 'db', 'migrations'));

    const moved = `${root}-moved`;
    renameSync(root, moved);
    dirs.push(moved);
    expect(run(moved).migrations).toBe(path.join(moved, 'server', 'db', 'migrations'));
  });
});
