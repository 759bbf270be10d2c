import { execFileSync } from 'node:child_process';
import { buildIsStale, projectRoot } from '../../scripts/build-state.mjs';

/**
 * Before any worker starts its server: the app is built once (as `npm start` would, when the build is missing or
 * older than the sources), not by every worker at once.
 */
export default function globalSetup(): void {
  if ((buildIsStale as () => boolean)())
    execFileSync('npm', ['run', 'build'], { cwd: projectRoot as string, stdio: 'inherit' });
}
