/**
 * A CSV export read over HTTP as a client would (bench/csv-export.ts): lines and bytes counted, the
 * header, first and last rows kept, progress every 5 s, process memory sampled meanwhile.
 */
import { request } from 'node:http';
import { int, mib, sampleMemory, secs } from './support';

export interface CsvRead {
  status: number;
  type: string;
  bytes: number;
  /** data rows (the header line not counted) */
  rows: number;
  header: string;
  first: string;
  last: string;
  ttfb: number;
  ms: number;
  memory: Awaited<ReturnType<Awaited<ReturnType<typeof sampleMemory>>['stop']>>;
}

export async function readCsv(url: string, token: string): Promise<CsvRead> {
  globalThis.gc?.(); // with node --expose-gc
  const memory = await sampleMemory(100);
  const started = performance.now();
  const result = await new Promise<Omit<CsvRead, 'ms' | 'memory'>>((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const ttfb = performance.now() - started;
      let bytes = 0;
      let lines = 0;
      let head = '';
      let tail = Buffer.alloc(0);
      // Progress every 5 s: a rate that falls as the export goes on means each batch costs more than the last.
      let mark = { at: performance.now(), lines: 0 };
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        memory.tick();
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
        const now = performance.now();
        if (now - mark.at >= 5000) {
          process.stdout.write(
            `    ${secs(now - started).padStart(9)}: ${int(lines - 1)} rows, ${int(((lines - mark.lines) / (now - mark.at)) * 1000)} rows/s over the last ${secs(now - mark.at)}\n`,
          );
          mark = { at: now, lines };
        }
        if (head.split('\r\n').length < 3) head += chunk.toString('utf8', 0, Math.min(chunk.length, 4096));
        tail = Buffer.concat([tail, chunk]).subarray(-4096);
      });
      res.on('end', () => {
        const tailLines = tail.toString('utf8').split('\r\n');
        const [header = '', first = ''] = head.split('\r\n');
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          bytes,
          rows: lines - 1,
          header: header.replace(/^\uFEFF/, ''),
          first,
          last: tailLines[tailLines.length - 2] ?? '',
          ttfb,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  const ms = performance.now() - started;
  return { ...result, ms, memory: await memory.stop() };
}

/** The figures of one export, as lines to print. */
export function describeCsv(r: CsvRead): string[] {
  const mem = r.memory;
  return [
    `  export: ${int(r.rows)} rows, ${int(r.bytes)} bytes (${mib(r.bytes)}) in ${secs(r.ms)}`,
    `  throughput: ${int((r.rows / r.ms) * 1000)} rows/s, ${mib((r.bytes / r.ms) * 1000)}/s; first byte after ${int(r.ttfb)} ms`,
    `  memory (RSS: ${mem.rssSamples} samples, heap: ${mem.heapSamples}): RSS ${mib(mem.baseline.rss)} -> peak ${mib(mem.peak.rss)} (+${mib(mem.peak.rss - mem.baseline.rss)}),` +
      ` heap ${mib(mem.baseline.heapUsed)} -> peak ${mib(mem.peak.heapUsed)} (+${mib(mem.peak.heapUsed - mem.baseline.heapUsed)}),` +
      ` external+buffers peak +${mib(mem.peak.external - mem.baseline.external)}`,
  ];
}
