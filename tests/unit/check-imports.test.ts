import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/** The import-loop check `npm run lint` runs (scripts/check-imports.mjs), on small projects of its own. */

const script = path.resolve('scripts/check-imports.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function check(files: Record<string, string>) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cw-imports-'));
  dirs.push(root);
  const tsconfig = {
    compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', paths: { '@shared/*': ['./shared/*'] } },
    include: ['**/*.ts'],
  };
  for (const [file, text] of Object.entries({ 'tsconfig.json': JSON.stringify(tsconfig), ...files })) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  return { code: run.status, out: run.stdout + run.stderr };
}

describe('the import-loop check', () => {
  it('passes a project whose imports run one way', () => {
    const r = check({
      'server/a.ts': "import { b } from './b';\nexport const a = b + 1;\n",
      'server/b.ts': "import { c } from '@shared/c';\nexport const b = c;\n",
      'shared/c.ts': 'export const c = 1;\n',
    });
    expect(r.out).toContain('No import loops among 3 files');
    expect(r.code).toBe(0);
  });

  it('fails on a loop, naming each import that closes it, across the @shared alias', () => {
    const r = check({
      'server/a.ts': "import { c } from '@shared/c';\nexport const a = c;\n",
      'shared/c.ts': "import { a } from '../server/a';\nexport const c = () => a;\n",
    });
    expect(r.code).toBe(1);
    expect(r.out).toContain('1 import loop(s)');
    expect(r.out).toContain('server/a.ts:1 imports shared/c.ts');
    expect(r.out).toContain('shared/c.ts:1 imports server/a.ts');
  });

  it('counts type-only imports and import() types: a loop of types is a loop', () => {
    const r = check({
      'a.ts': "import type { B } from './b';\nexport interface A { b: B }\n",
      'b.ts': "export interface B { a: import('./a').A }\n",
    });
    expect(r.code).toBe(1);
    expect(r.out).toContain('b.ts:1 imports a.ts');
  });
});
