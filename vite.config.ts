import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiPort = Number(process.env.API_PORT ?? 3001);

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            // Dialogs, popovers and their positioning engine: only the screens that open one load them.
            {
              name: 'overlays',
              test: /node_modules[\\/](@floating-ui|react-remove-scroll|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|react-transition-group|tslib)/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}` },
      '/auth': { target: `http://127.0.0.1:${apiPort}` },
      '/dev-idp': { target: `http://127.0.0.1:${apiPort}` },
    },
  },
});
