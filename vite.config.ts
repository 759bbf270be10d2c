import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiPort = Number(process.env.API_PORT ?? 3001);

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist/web', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}` },
      '/auth': { target: `http://127.0.0.1:${apiPort}` },
      '/dev-idp': { target: `http://127.0.0.1:${apiPort}` },
    },
  },
});
