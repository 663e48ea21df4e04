/** build/server/ of the project at `root`. */
export function serverDir(root: string): string;
/** The compiled server's entry, build/server/server.mjs. */
export function serverEntry(root: string): string;
/** Whether build/server/ was compiled from the sources as they are now (a stat per input file). */
export function serverIsCurrent(root: string): boolean;
/** Compiles server/server.ts of the project at `root` into build/server/. */
export function buildServer(root: string): Promise<void>;
