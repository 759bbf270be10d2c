import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './lib/project-root.js';
import { architectureViolations, folderShape } from './test/architecture.js';

/** src/server's own code (tests and their helpers left out), by path relative to it. */
function serverSources(): Map<string, string> {
  const root = join(projectRoot(), 'src', 'server');
  const sources = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const path = join(entry.parentPath, entry.name)
      .slice(root.length + 1)
      .split('\\')
      .join('/');
    if (path.startsWith('test/')) continue;
    sources.set(path, readFileSync(join(root, path), 'utf8'));
  }
  return sources;
}

describe("the server's shape", () => {
  it('has features side by side on the platform, no cycles, and no change announced but through a domain event', () => {
    const sources = serverSources();
    expect(sources.size).toBeGreaterThan(100);
    expect(architectureViolations(sources)).toEqual([]);
    // Platform, features, composition: three levels and the platform's own few.
    const { depth, backEdges } = folderShape(sources);
    expect(backEdges).toBe(0);
    expect(depth).toBeLessThanOrEqual(10);
  });

  it('fails when a service publishes directly', () => {
    const sources = serverSources();
    const publishing = new Map(sources);
    publishing.set(
      'chat/chat-service.ts',
      `${sources.get('chat/chat-service.ts')}\nexport const sneak = (app) => app.bus.deliver({ type: 'changed', topic: 'chat' });\n`,
    );
    expect(architectureViolations(publishing)).toEqual([
      'chat/chat-service.ts announces a change itself: record a domain event instead (src/server/reactions.ts)',
    ]);
  });

  it("fails when a feature imports another feature's service, or the platform a feature", () => {
    const sources = serverSources();
    const importing = new Map(sources);
    importing.set(
      'orders/order-moves.ts',
      `import { postMessage } from '../chat/chat-service.js';\n${sources.get('orders/order-moves.ts')}`,
    );
    importing.set(
      'data/menu-queries.ts',
      `import { listKitchenOrders } from '../orders/kitchen-order-queries.js';\n${sources.get('data/menu-queries.ts')}`,
    );
    expect(architectureViolations(importing).sort()).toEqual([
      'data/menu-queries.ts imports orders/kitchen-order-queries.ts: the platform never imports a feature or the composition',
      'orders/order-moves.ts imports chat/chat-service.ts: features never import each other (put shared reads in data/)',
    ]);
  });

  it('finds an import cycle', () => {
    const sources = new Map([
      ['chat/a.ts', "import { b } from './b.js';"],
      ['chat/b.ts', "import { a } from './a.js';"],
    ]);
    expect(architectureViolations(sources)).toEqual(['import cycle: chat/a.ts → chat/b.ts']);
  });
});
