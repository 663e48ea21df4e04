import { type Page, expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { verifiedIndividual } from './support/accounts';
import { logInThroughUi } from './support/flows';

/**
 * The first load's budget (issue 11): the JavaScript a real browser downloads for `/` until the
 * login form can be used, counted at its gzip size as the server sends it, stays within 250 KB;
 * everything goes out compressed; a customer never downloads back-office (Refine) or chart code.
 */
const BUDGET_GZIP_BYTES = 250_000;

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}
// Read when a test runs: the web servers build dist/ after the test files are listed.
const readManifest = (): Record<string, ManifestChunk> =>
  JSON.parse(readFileSync(path.join('dist', '.vite', 'manifest.json'), 'utf8'));

/** Every chunk file a source loads at once, and with `opened`, also when its screens are opened. */
function reachable(manifest: Record<string, ManifestChunk>, from: string, opened: boolean): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    files.add(manifest[key].file);
    // The entry's own lazy imports are the two apps: reaching the entry does not open the other app.
    const screens = opened && key !== 'index.html' ? (manifest[key].dynamicImports ?? []) : [];
    for (const k of [...(manifest[key].imports ?? []), ...screens]) visit(k);
  };
  visit(from);
  return files;
}

/** Back-office code: chunks only the back-office loads (its screens, the statistics charts), and Refine's. */
function backOfficeCode(): Set<string> {
  const manifest = readManifest();
  const customer = reachable(manifest, 'customer/App.tsx', true);
  const code = new Set([...reachable(manifest, 'admin/App.tsx', true)].filter((f) => !customer.has(f)));
  for (const [key, chunk] of Object.entries(manifest))
    if (/node_modules\/(@refinedev|@ant-design\/charts)\//.test(key)) code.add(chunk.file);
  return code;
}

/** The scripts the page downloads from its own origin, with the encoding each came in. */
function recordScripts(page: Page) {
  const scripts = new Map<string, string | undefined>();
  page.on('response', (res) => {
    if (
      res.request().resourceType() === 'script' &&
      new URL(res.url()).origin === new URL(page.url() || res.url()).origin
    ) {
      scripts.set(new URL(res.url()).pathname, res.headers()['content-encoding']);
    }
  });
  return scripts;
}

/** The bytes the server sends for a file to a client that accepts gzip only. */
function gzipBytes(baseURL: string, pathname: string): Promise<{ bytes: number; encoding?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(pathname, baseURL), { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] }));
      })
      .on('error', reject);
  });
}

test('the login screen is usable after at most 250 KB of gzipped JavaScript, all of it sent compressed', async ({
  page,
  baseURL,
}, info) => {
  const scripts = recordScripts(page);
  await page.goto('/');
  await expect(page.getByLabel('Email')).toBeEditable();
  await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
  await page.waitForLoadState('networkidle');

  expect(scripts.size).toBeGreaterThan(0);
  let total = 0;
  const rows: string[] = [];
  for (const [pathname, encoding] of scripts) {
    expect(encoding, `${pathname} reached the browser compressed`).toBe('br');
    const gz = await gzipBytes(baseURL!, pathname);
    expect(gz.encoding, `${pathname} has a gzip copy`).toBe('gzip');
    total += gz.bytes;
    rows.push(`${pathname} ${gz.bytes}`);
  }
  info.annotations.push({
    type: 'first load',
    description: `${total} bytes of gzipped JS in ${scripts.size} files: ${rows.join(', ')}`,
  });
  console.log(`first load (${info.project.name}): ${total} bytes of gzipped JS in ${scripts.size} files`);
  expect(total, rows.join('\n')).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);

  const backOffice = backOfficeCode();
  expect(backOffice.size).toBeGreaterThan(0);
  expect([...scripts.keys()].filter((p) => backOffice.has(p.slice(1)))).toEqual([]);
});

test('a customer who logs in and reaches the portal downloads no back-office or chart code', async ({
  page,
  request,
}) => {
  const { email, password } = await verifiedIndividual(request, 'Kofi', 'Asante');
  const scripts = recordScripts(page);
  await page.goto('/');
  await logInThroughUi(page, email, password);
  await expect(page.getByText(/Good (morning|afternoon|evening), Kofi/)).toBeVisible();
  await page.waitForLoadState('networkidle');

  const backOffice = backOfficeCode();
  expect([...scripts.keys()].filter((p) => backOffice.has(p.slice(1)))).toEqual([]);
});
