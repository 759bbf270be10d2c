import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';

const apiPort = Number(process.env.API_PORT ?? 3001);

const config = {
  plugins: [react()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Maps stay beside the build for reading a production stack trace, but no script names them and the
    // server does not serve them: they carry the whole source.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            // Dialogs, popovers and their positioning engine: only the screens that open one load them.
            {
              name: 'overlays',
              test: /node_modules[\\/](@floating-ui|@babel[\\/]runtime|react-remove-scroll|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|react-transition-group|tslib)/,
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
} satisfies UserConfig;

export default defineConfig(({ command }) => {
  // A build is always a production build, whatever NODE_ENV its caller has (`NODE_ENV=development npm start`):
  // the app must not depend on where it runs, and a development bundle is broken (react-transition-group's
  // development-only prop-types import ties the overlays chunk into an import cycle with the notifications
  // chunk, which then calls prop-types before it is defined).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return config;
});
