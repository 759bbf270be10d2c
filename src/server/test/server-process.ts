import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { projectRoot } from '../lib/project-root.js';

const running: ChildProcess[] = [];
/** Processes seen below the ones we started: an orphan outlives its parent and must still be cleaned up. */
const seen = new Set<number>();

/**
 * Runs `command` in the project's folder with exactly `env`, collecting what it prints. `ready()` waits for the
 * server it starts to answer /readyz on `env.PORT` (or to say it is ready).
 */
export function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { cwd: projectRoot(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (done: () => Promise<boolean> | boolean, what: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await done()) return;
      if (child.exitCode !== null) throw new Error(`process exited early:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${what} not seen in time:\n${output}`);
  };
  return {
    child,
    exited,
    output: () => output,
    /** The process and everything it has started so far. */
    tree(): number[] {
      const pids = child.pid === undefined ? [] : [child.pid, ...descendants(child.pid)];
      pids.forEach((pid) => seen.add(pid));
      return pids;
    },
    /** Waits until the process has printed `text`. */
    printed: (text: string, timeoutMs = 30_000) => waitFor(() => output.includes(text), text, timeoutMs),
    // A server started by tsx compiles its sources as it loads: 30 s ran out at a load of 20 (two process files at a
    // time beside other work on two cores, 2026-11-29). A condition, so a quick start is not slowed.
    ready: (timeoutMs = 90_000) =>
      waitFor(
        async () =>
          output.includes('marketplace ready') ||
          (Number(env.PORT) > 0 &&
            (await fetch(`http://127.0.0.1:${env.PORT}/readyz`).then(
              (r) => r.ok,
              () => false,
            ))),
        'server ready',
        timeoutMs,
      ),
  };
}

/** Starts the real server (src/server/main.ts) in its own process, as `npm start` would, with `env`. */
export function startServerProcess(env: Record<string, string>) {
  return startProcess(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    ...process.env,
    LOG_LEVEL: 'info',
    GEOCODER: 'off',
    NODE_ENV: 'development',
    ...env,
  });
}

/** Each process with its parent, from /proc/<pid>/stat: "pid (command) state ppid …". */
function processParents(): { pid: number; parent: number }[] {
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command may hold spaces and parentheses: read what follows the last ')'.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      found.push({ pid: Number(name), parent });
    } catch {
      // ended while we looked
    }
  }
  return found;
}

/** Every process below `pid` (children, their children, …), read from /proc: Linux only. */
export function descendants(pid: number): number[] {
  const states = processParents();
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0;) {
    const parent = queue.shift();
    const children = states.filter((p) => p.parent === parent).map((p) => p.pid);
    found.push(...children);
    queue.push(...children);
  }
  return found;
}

/** Whether `pid` is still running (a zombie waiting for its parent to read its exit has ended). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

/** Kills every process this test file started and left running, with everything they started. */
export function killServerProcesses(): void {
  const pids = new Set(seen);
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.pid !== undefined)
      [child.pid, ...descendants(child.pid)].forEach((pid) => pids.add(pid));
  }
  seen.clear();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
