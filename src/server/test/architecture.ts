import { dirname, join, normalize, relative } from 'node:path';
import layers from '../layers.json' with { type: 'json' };

/**
 * The server's shape (src/server/layers.json), bottom up: platform folders (each may import those before it), then
 * features side by side (each may import the platform, never another feature), then the composition at the root
 * (app.ts, main.ts, reactions.ts, …), which may import anything. Tests and their helpers (src/server/test) are
 * outside it. eslint.config.js enforces the same while editing.
 */
export const PLATFORM: readonly string[] = layers.platform;
export const FEATURES: readonly string[] = layers.features;

/** Where the change bus is spoken to: only the platform that carries it and the map of reactions. */
const MAY_PUBLISH = /^(live|events)\/|^reactions\.ts$/;
/** Ways of announcing a change other than recording a domain event. */
const PUBLISHING =
  /\bbus\.(send|sendingIn|deliver|afterCommit)\(|type:\s*'(changed|session-ended)'|\bpublish\(/;

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** A file's folder under src/server ('' for the root's files). */
const folderOf = (file: string) => (file.includes('/') ? (file.split('/')[0] ?? '') : '');

function kind(folder: string): 'platform' | 'feature' | 'composition' | 'unknown' {
  if (folder === '') return 'composition';
  if (PLATFORM.includes(folder)) return 'platform';
  if (FEATURES.includes(folder)) return 'feature';
  return 'unknown';
}

export interface Graph {
  /** Imports between files of src/server, by path relative to it (`orders/place-order.ts`). */
  edges: Map<string, Set<string>>;
}

/** The import graph of `sources` (paths relative to src/server → their text); tests and their helpers left out. */
export function importGraph(sources: ReadonlyMap<string, string>): Graph {
  const edges = new Map<string, Set<string>>();
  for (const [file, text] of sources) {
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const target = normalize(join(dirname(file), match[1] ?? '')).replace(/\.js$/, '.ts');
      if (!target.startsWith('..') && sources.has(target)) targets.add(target);
    }
    edges.set(file, targets);
  }
  return { edges };
}

/** What breaks the shape: a feature importing another, the platform importing upwards, a cycle, a direct publish. */
export function architectureViolations(sources: ReadonlyMap<string, string>): string[] {
  const { edges } = importGraph(sources);
  const problems: string[] = [];
  for (const [file, targets] of edges) {
    const from = folderOf(file);
    if (kind(from) === 'unknown')
      problems.push(`${file}: src/server/${from} is neither platform nor a feature`);
    for (const target of targets) {
      const to = folderOf(target);
      if (from === to) continue;
      const [a, b] = [kind(from), kind(to)];
      if (a === 'feature' && b === 'feature')
        problems.push(
          `${file} imports ${target}: features never import each other (put shared reads in data/)`,
        );
      if (a === 'platform' && (b === 'feature' || b === 'composition'))
        problems.push(`${file} imports ${target}: the platform never imports a feature or the composition`);
      if (a === 'platform' && b === 'platform' && PLATFORM.indexOf(to) > PLATFORM.indexOf(from))
        problems.push(`${file} imports ${target}: ${from}/ is below ${to}/`);
      if (a === 'feature' && b === 'composition')
        problems.push(`${file} imports ${target}: a feature never imports the composition`);
    }
    if (!MAY_PUBLISH.test(file) && PUBLISHING.test(sources.get(file) ?? ''))
      problems.push(
        `${file} announces a change itself: record a domain event instead (src/server/reactions.ts)`,
      );
  }
  for (const cycle of cycles(edges)) problems.push(`import cycle: ${cycle.join(' → ')}`);
  return problems;
}

/** Every cycle's files (one per strongly connected component of more than one file, or a file importing itself). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!indexOf.has(node)) visit(node);
  return found;
}

/**
 * The folder-level graph's depth (the longest chain of folders importing folders, after folding cycles) and the
 * imports running back up (folder imports that close a cycle): what the shape is measured by.
 */
export function folderShape(sources: ReadonlyMap<string, string>): { depth: number; backEdges: number } {
  const { edges } = importGraph(sources);
  const folderEdges = new Map<string, Set<string>>();
  for (const [file, targets] of edges) {
    const from = folderOf(file) || '(root)';
    if (!folderEdges.has(from)) folderEdges.set(from, new Set());
    for (const target of targets) {
      const to = folderOf(target) || '(root)';
      if (to !== from) folderEdges.get(from)!.add(to);
    }
  }
  // Back edges of a depth-first walk from every folder: each closes a cycle.
  let backEdges = 0;
  const state = new Map<string, 'open' | 'done'>();
  const walk = (node: string) => {
    state.set(node, 'open');
    for (const next of folderEdges.get(node) ?? []) {
      if (state.get(next) === 'open') backEdges++;
      else if (!state.has(next)) walk(next);
    }
    state.set(node, 'done');
  };
  for (const node of [...folderEdges.keys()].sort()) if (!state.has(node)) walk(node);
  // Depth on the graph without its back edges (longest path, in folders).
  const depthOf = new Map<string, number>();
  const visiting = new Set<string>();
  const depth = (node: string): number => {
    const known = depthOf.get(node);
    if (known !== undefined) return known;
    visiting.add(node);
    let deepest = 0;
    for (const next of folderEdges.get(node) ?? [])
      if (!visiting.has(next)) deepest = Math.max(deepest, depth(next));
    visiting.delete(node);
    depthOf.set(node, deepest + 1);
    return deepest + 1;
  };
  return { depth: Math.max(...[...folderEdges.keys()].map(depth)), backEdges };
}

/** `path` relative to src/server, with forward slashes. */
export const serverPath = (root: string, path: string) => relative(root, path).split('\\').join('/');
