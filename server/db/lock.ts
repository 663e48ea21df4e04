import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database belongs to one process at a time. The server holds this lock while
 * it runs so the CLI refuses to open the same data directory underneath it.
 */
function embeddedLockFile(dataDir: string) {
  return path.join(dataDir, 'db.lock');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function acquireEmbeddedLock(dataDir: string): () => void {
  const file = embeddedLockFile(dataDir);
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8'));
    if (pid && pid !== process.pid && alive(pid)) {
      throw new Error(
        `The embedded database in ${dataDir} is in use by process ${pid}. Stop the server first, or use DATABASE_URL.`,
      );
    }
  }
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}
