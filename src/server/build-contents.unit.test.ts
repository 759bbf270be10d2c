import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { projectRoot } from './lib/project-root.js';

it('compiles no test code into the server build (dist/node)', () => {
  const root = projectRoot();
  const listed = execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.server.json', '--listFilesOnly'],
    { cwd: root, encoding: 'utf8' },
  )
    .split('\n')
    .filter((file) => file.startsWith(join(root, 'src')));
  expect(listed.length).toBeGreaterThan(50);
  expect(listed.filter((file) => /[/.-]test[/.s-]|[/-]fake|builders/.test(file))).toEqual([]);
}, 60_000);
