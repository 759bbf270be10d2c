// A cluster on one machine: N instances of the server on one PostgreSQL behind nginx, and a supervisor doing what
// a process manager and a load balancer's health checks do (`npm run cluster`, tests/process/cluster.test.ts,
// bench/cluster.ts). docs/operations.md describes the same set-up for a real deployment.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/server/lib/free-port.js';
import { nginxConfig } from './nginx-config.js';

export interface ClusterOptions {
  /** How many instances (3 by default). */
  size?: number;
  /** The public port nginx listens on (127.0.0.1). */
  port: number;
  /** What starts one instance: a command and its arguments, run in `cwd`. */
  command: string[];
  cwd: string;
  /** Every instance's environment (DATABASE_URL, SESSION_SECRET, …); PORT, HOST and PUBLIC_URL are set here. */
  env: NodeJS.ProcessEnv;
  /** The first instance's extra environment (it migrates first and may seed the demo kitchens). */
  firstEnv?: NodeJS.ProcessEnv;
  /** Route the development sign-in provider to the first instance (its state is one process's memory). */
  devSignIn?: boolean;
  /** How often the supervisor asks each instance's /readyz. */
  checkEveryMs?: number;
  /** Where an instance's output goes: inherited (a terminal), or collected (tests read it on failure). */
  output?: 'inherit' | 'collect';
  log?: (line: string) => void;
}

export interface InstanceState {
  index: number;
  port: number;
  /** The running process, if any. */
  child: ChildProcess | undefined;
  /** In nginx's rotation. */
  inRotation: boolean;
  /** Taken out on purpose (draining or restarting): the supervisor leaves it alone. */
  held: boolean;
  /** Processes started for this slot so far (restarts after a crash count). */
  starts: number;
  output: string;
}

const ask = (url: string, timeoutMs = 1000) =>
  fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).then(
    async (res) => ({ ok: res.ok, text: await res.text() }),
    () => ({ ok: false, text: '' }),
  );

export class Cluster {
  readonly instances: InstanceState[] = [];
  readonly url: string;
  private nginx: ChildProcess | undefined;
  private nginxExit: Promise<unknown> = Promise.resolve();
  private readonly dir = mkdtempSync(join(tmpdir(), 'homecooked-cluster-'));
  private statusPort = 0;
  private generation = 0;
  private checking: NodeJS.Timeout | undefined;
  private stopping = false;
  private supervising: Promise<void> = Promise.resolve();

  constructor(private readonly options: ClusterOptions) {
    this.url = `http://127.0.0.1:${options.port}`;
  }

  private log(line: string) {
    (this.options.log ?? ((l: string) => console.log(`[cluster] ${l}`)))(line);
  }

  /** Starts the instances (the first alone: it migrates), then nginx, then the supervisor. */
  async start(): Promise<void> {
    const size = this.options.size ?? 3;
    this.statusPort = await freePort();
    for (let index = 0; index < size; index++) {
      this.instances.push({
        index,
        port: await freePort(),
        child: undefined,
        inRotation: false,
        held: false,
        starts: 0,
        output: '',
      });
    }
    // The first migrates the database (and may seed it); the others start together once it is ready.
    const [first, ...others] = this.instances;
    const launch = async (instance: InstanceState) => {
      this.spawnInstance(instance);
      await this.waitReady(instance);
      instance.inRotation = true;
    };
    if (first) await launch(first);
    await Promise.all(others.map(launch));
    await this.startNginx();
    this.checking = setInterval(() => {
      this.supervising = this.supervising.then(() => this.check());
    }, this.options.checkEveryMs ?? 500);
    this.log(
      `nginx on ${this.url}: ${size} instances (ports ${this.instances.map((i) => i.port).join(', ')})`,
    );
  }

  private instanceUrl(instance: InstanceState) {
    return `http://127.0.0.1:${instance.port}`;
  }

  private spawnInstance(instance: InstanceState) {
    const [command, ...args] = this.options.command;
    const child = spawn(command ?? process.execPath, args, {
      cwd: this.options.cwd,
      env: {
        ...this.options.env,
        ...(instance.index === 0 ? this.options.firstEnv : {}),
        PORT: String(instance.port),
        HOST: '127.0.0.1',
        PUBLIC_URL: this.options.env.PUBLIC_URL ?? `http://localhost:${this.options.port}`,
      },
      stdio: [
        'ignore',
        this.options.output === 'collect' ? 'pipe' : 'inherit',
        this.options.output === 'collect' ? 'pipe' : 'inherit',
      ],
    });
    const keep = (chunk: Buffer) => {
      instance.output = (instance.output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    instance.child = child;
    instance.starts += 1;
    child.once('exit', (code, signal) => {
      if (instance.child === child) instance.child = undefined;
      if (!this.stopping && !instance.held)
        this.log(`instance ${instance.index} exited (${signal ?? `code ${code}`})`);
    });
  }

  private async waitReady(instance: InstanceState, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!instance.child)
        throw new Error(`instance ${instance.index} exited while starting:\n${instance.output}`);
      if ((await ask(`${this.instanceUrl(instance)}/readyz`)).ok) return;
      await sleep(100);
    }
    throw new Error(`instance ${instance.index} not ready in ${timeoutMs} ms:\n${instance.output}`);
  }

  private async startNginx() {
    for (const name of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
      mkdirSync(join(this.dir, 'temp', name), { recursive: true });
      // Workers started by root run as `nobody`: they write request bodies here.
      chmodSync(join(this.dir, 'temp', name), 0o777);
    }
    chmodSync(this.dir, 0o755);
    chmodSync(join(this.dir, 'temp'), 0o755);
    this.writeConfig();
    const nginx = spawn(
      'nginx',
      [
        '-p',
        this.dir,
        '-e',
        join(this.dir, 'error.log'),
        '-c',
        join(this.dir, 'nginx.conf'),
        '-g',
        'daemon off;',
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    this.nginx = nginx;
    this.nginxExit = new Promise((resolve) => nginx.once('exit', resolve));
    await this.waitGeneration();
  }

  private writeConfig() {
    this.generation += 1;
    writeFileSync(
      join(this.dir, 'nginx.conf'),
      nginxConfig({
        dir: this.dir,
        port: this.options.port,
        statusPort: this.statusPort,
        generation: this.generation,
        servers: this.instances.map((i) => ({ address: `127.0.0.1:${i.port}`, down: !i.inRotation })),
        devIdp: this.options.devSignIn ? `127.0.0.1:${this.instances[0]?.port}` : undefined,
        workers: 2,
      }),
    );
  }

  /** Waits until nginx answers with the configuration last written (three fresh connections in a row). */
  private async waitGeneration(timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    let inARow = 0;
    while (Date.now() < deadline) {
      if (this.nginx?.exitCode !== null && this.nginx?.exitCode !== undefined)
        throw new Error(`nginx exited (${this.nginx.exitCode})`);
      const { text } = await ask(`http://127.0.0.1:${this.statusPort}/generation`);
      inARow = text === String(this.generation) ? inARow + 1 : 0;
      if (inARow >= 3) return;
      await sleep(inARow > 0 ? 20 : 50);
    }
    throw new Error(`nginx did not take configuration ${this.generation} in ${timeoutMs} ms`);
  }

  /** Writes the configuration and has nginx take it (graceful: old workers finish what they hold). */
  private async reload() {
    this.writeConfig();
    this.nginx?.kill('SIGHUP');
    await this.waitGeneration();
  }

  /** One round of health checks: a dead instance is started again, rotation follows readiness. */
  private async check() {
    if (this.stopping) return;
    let changed = false;
    for (const instance of this.instances) {
      if (instance.held) continue;
      if (!instance.child) {
        // A process manager's Restart=always: out of rotation, started again, back in once ready.
        if (instance.inRotation) {
          instance.inRotation = false;
          changed = true;
        }
        this.log(`starting instance ${instance.index} again`);
        this.spawnInstance(instance);
        continue;
      }
      const ready = (await ask(`${this.instanceUrl(instance)}/readyz`, 1000)).ok;
      if (ready !== instance.inRotation) {
        instance.inRotation = ready;
        changed = true;
        this.log(`instance ${instance.index} ${ready ? 'back in' : 'out of'} rotation`);
      }
    }
    if (changed && !this.stopping) await this.reload();
  }

  /** Runs `fn` with the supervisor paused (it never reloads nginx meanwhile). */
  private async exclusively<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.supervising.then(fn);
    this.supervising = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Kills instance `index` without warning (SIGKILL); the supervisor notices and starts it again. */
  kill(index: number): void {
    this.instances[index]?.child?.kill('SIGKILL');
  }

  /**
   * Restarts instance `index` without a client seeing a failure: out of nginx's rotation first (a reload; old
   * workers finish their requests), then SIGTERM (the instance finishes what is in flight and ends its live
   * streams, which reconnect through nginx to the others), then a new process, back in rotation once ready.
   */
  async restart(index: number): Promise<void> {
    const instance = this.instances[index];
    if (!instance) throw new Error(`no instance ${index}`);
    await this.exclusively(async () => {
      instance.held = true;
      try {
        instance.inRotation = false;
        await this.reload();
        await this.stopInstance(instance);
        this.spawnInstance(instance);
        await this.waitReady(instance);
        instance.inRotation = true;
        await this.reload();
      } finally {
        instance.held = false;
      }
    });
  }

  /** Restarts every instance, one at a time. */
  async rollingRestart(): Promise<void> {
    for (const instance of this.instances) await this.restart(instance.index);
  }

  private async stopInstance(instance: InstanceState, timeoutMs = 10_000) {
    const child = instance.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const late = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(late);
  }

  /** Stops nginx (gracefully), then every instance (SIGTERM), and removes nginx's folder. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.checking) clearInterval(this.checking);
    await this.supervising;
    if (this.nginx && this.nginx.exitCode === null) {
      this.nginx.kill('SIGQUIT');
      const late = setTimeout(() => this.nginx?.kill('SIGKILL'), 12_000);
      await this.nginxExit;
      clearTimeout(late);
    }
    await Promise.all(this.instances.map((instance) => this.stopInstance(instance)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
