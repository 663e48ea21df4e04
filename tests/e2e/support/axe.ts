import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AxeResults } from 'axe-core';
import { type Page, expect, test } from '@playwright/test';

// WCAG 2.0/2.1 level A and AA: what issue 13 asks of every screen, panel, modal and drawer.
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core, run in the page as it is now. Injected once per document and run directly: the
 * @axe-core/playwright builder re-injects it and opens a page per check (about 1.2 s a check
 * against 0.1 s), which over the suite's few hundred checks would add minutes to every run.
 */
async function runAxe(page: Page): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    // What is fading out (a toast leaving, a drawer closing) is measured half-transparent: left out.
    (tags) =>
      (window as unknown as { axe: typeof import('axe-core') }).axe
        .run({ exclude: ['[class*="-leave"]'] } as never, {
          runOnly: { type: 'tag', values: tags },
          resultTypes: ['violations'],
        })
        .then((r) => r.violations),
    TAGS,
  );
}

/**
 * Fails on a serious or critical violation in what the page shows now. Every finding (any impact)
 * is written to test-results/axe/<project>/<name>.json for reading. AXE_REPORT_ONLY=1 records
 * without failing (for surveying a change); AXE_TIMING=<file> appends each check's duration.
 */
export async function expectAccessible(page: Page, name: string) {
  const project = test.info().project.name;
  const started = Date.now();
  const violations = await runAxe(page);
  if (process.env.AXE_TIMING) appendFileSync(process.env.AXE_TIMING, `${project} ${name} ${Date.now() - started}\n`);
  const found = violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary, html: n.html.slice(0, 200) })),
  }));
  if (found.length) {
    const dir = path.join('test-results', 'axe', project);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ url: page.url(), violations: found }, null, 2));
  }
  if (process.env.AXE_REPORT_ONLY === '1') return;
  const blocking = found.filter((v) => BLOCKING.has(v.impact ?? ''));
  expect(
    blocking.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target).join(', ')}`),
    `axe on ${name} (${page.url()})`,
  ).toEqual([]);
}
