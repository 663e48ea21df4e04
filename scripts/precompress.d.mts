import type { Plugin } from 'vite';

/** Writes `<file>.br` and `<file>.gz` beside each compressible file of `dir`, when they are smaller. */
export function precompressDir(dir: string): Promise<{ files: number }>;
/** Vite plugin: precompresses the output directory once the bundle is written. */
export function precompress(): Plugin;
