// npm run dev: the API server with reload on change (tsx watch, port 3001) and Vite's dev server with
// hot module reload on PORT (default 3000), proxying the server's paths to it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { devProxy } from './dev-proxy.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT ?? 3000);
const apiPort = Number(process.env.API_PORT ?? port + 1);

const api = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', 'src/server/server.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'development', PORT: String(apiPort), HOST: '127.0.0.1', PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}` },
});

const { createServer } = await import('vite');
const target = `http://127.0.0.1:${apiPort}`;
const vite = await createServer({
  configFile: path.join(root, 'vite.config.ts'),
  server: {
    port,
    host: process.env.HOST ?? '0.0.0.0',
    proxy: devProxy(target),
  },
});
await vite.listen();
vite.printUrls();

const stop = () => {
  api.kill('SIGTERM');
  vite.close().finally(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
