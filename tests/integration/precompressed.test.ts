import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress.mjs';
import { type TestApp, startTestApp } from './support/app';

/** The built web app goes out compressed at build time: brotli or gzip by Accept-Encoding. */

const SCRIPT = `export const screens = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `screen number ${i}`))};\n`;
const STYLE = `.screen { color: #1d4ed8; }\n`.repeat(200);
const INDEX = `<!doctype html><html><head><link rel="stylesheet" href="/assets/index-St1e.css"></head><body>${'<div class="boot-bar"></div>'.repeat(60)}<script type="module" src="/assets/index-Cur3ntH4.js"></script></body></html>`;

let t: TestApp;
beforeAll(async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cw-spa-gz-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), INDEX);
  writeFileSync(path.join(root, 'assets', 'index-Cur3ntH4.js'), SCRIPT);
  writeFileSync(path.join(root, 'assets', 'index-St1e.css'), STYLE);
  writeFileSync(path.join(root, 'assets', 'tiny-T1ny.js'), 'export {};\n');
  await precompressDir(root);
  t = await startTestApp({}, { spaRoot: root });
});
afterAll(() => t.close());

/** The raw answer (fetch would undo the encoding and hide it). */
function raw(
  p: string,
  acceptEncoding?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${t.url}${p}`,
      { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
  });
}

const decode = (encoding: string | undefined, body: Buffer) =>
  (encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body).toString();

describe('compressed web app', () => {
  it.each([
    ['/assets/index-Cur3ntH4.js', SCRIPT, /javascript/],
    ['/assets/index-St1e.css', STYLE, /text\/css/],
  ])('%s: brotli when asked, else gzip, else as it is; always Vary and cached for a year', async (p, content, type) => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ] as const) {
      const res = await raw(p, accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toMatch(type);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      if (encoding) expect(res.body.length).toBeLessThan(Buffer.byteLength(content) / 3);
      expect(decode(encoding, res.body)).toBe(content);
    }
  });

  it.each(['/', '/login', '/portal/cards'])('%s: the page itself compressed too, and never cached', async (p) => {
    const res = await raw(p, 'gzip, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(decode('br', res.body)).toBe(INDEX);
  });

  it('sends a file too small to gain from compression as it is', async () => {
    const res = await raw('/assets/tiny-T1ny.js', 'gzip, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe('export {};\n');
  });

  it('keeps a missing hashed asset a 404 whatever the encoding asked', async () => {
    const res = await raw('/assets/index-0ldH4sh.js', 'br');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});
