// npm run dev: the API with reload on change, and Vite's dev server (proxying /api) on :5173.
import { spawn } from 'node:child_process';

const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch-path=server', '--watch-path=shared', 'server/server.ts'], {
    stdio: 'inherit',
    env: { ...process.env, SERVE_SPA: 'false' },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
