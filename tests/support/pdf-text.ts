import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A PDF's text as a reader sees it, through pdf.js (Mozilla's PDF engine, its Node build): per
 * page, the lines from top to bottom, each the text runs on it from left to right. The statement
 * writes each table cell as its own run, so a line of a movement reads as its cells.
 */
export interface PdfText {
  pages: number;
  /** every line of every page, in reading order */
  lines: string[][];
  /** all text, lines joined by newlines and cells by ' | ' */
  text: string;
  info: Record<string, unknown>;
}

const fontsDir = () => {
  const entry = createRequire(import.meta.url).resolve('pdfjs-dist/package.json');
  return `${pathToFileURL(path.join(path.dirname(entry), 'standard_fonts')).href}/`;
};

export async function pdfText(data: Uint8Array): Promise<PdfText> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // A copy: pdf.js takes the buffer over (detaches it).
  const pdf = await getDocument({
    data: new Uint8Array(data),
    standardFontDataUrl: fontsDir(),
    verbosity: 0,
    isEvalSupported: false,
  }).promise;
  const lines: string[][] = [];
  for (let p = 1; p <= pdf.numPages; p++) {
    const page = await pdf.getPage(p);
    const content = await page.getTextContent();
    // Runs whose baselines are within a point of each other are one line.
    const rows = new Map<number, Array<{ x: number; s: string }>>();
    for (const item of content.items) {
      if (!('str' in item) || !item.str.trim()) continue;
      const y = Math.round(item.transform[5]);
      const row = rows.get(y) ?? rows.get(y - 1) ?? rows.get(y + 1) ?? [];
      if (!rows.has(y) && !rows.has(y - 1) && !rows.has(y + 1)) rows.set(y, row);
      row.push({ x: item.transform[4], s: item.str.trim() });
    }
    for (const y of [...rows.keys()].sort((a, b) => b - a))
      lines.push(
        rows
          .get(y)!
          .sort((a, b) => a.x - b.x)
          .map((r) => r.s),
      );
  }
  const { info } = await pdf.getMetadata();
  await pdf.destroy();
  return {
    pages: pdf.numPages,
    lines,
    text: lines.map((l) => l.join(' | ')).join('\n'),
    info: info as Record<string, unknown>,
  };
}
