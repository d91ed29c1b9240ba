import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { until } from './devices.testing.ts';

/*
 * The product as an operator runs it, in a process of its own (`main.ts`, the code `npm start`
 * runs), so that a fault case can kill it for real (SIGKILL: no close hook, no flush, no goodbye)
 * and start it again on the same ports, database and data folder.
 */

const ROOT = resolve(import.meta.dirname, '../../../..');
const MAIN = join(ROOT, 'packages/server/src/main.ts');

export type ServerProcessOptions = {
  databaseUrl: string;
  port: number;
  mqttPort: number;
  /** More environment (MQTT_URL, …). */
  env?: Record<string, string>;
};

export class ServerProcess {
  private child: ChildProcess | undefined;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'fbx-fault-server-'));
  /** Where the processes' output goes, one file for all their lives (read it when a case fails). */
  readonly logFile = join(this.dataDir, 'server.log');
  private readonly log = createWriteStream(this.logFile, { flags: 'a' });
  /** Times the process was started. */
  starts = 0;

  constructor(private readonly options: ServerProcessOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  /** Starts the process and waits until it answers its health check. */
  async start(): Promise<void> {
    this.starts += 1;
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: this.options.databaseUrl,
        DATA_DIR: this.dataDir,
        PORT: String(this.options.port),
        MQTT_PORT: String(this.options.mqttPort),
        HOST: '127.0.0.1',
        DEMO: 'false',
        LOG_LEVEL: 'warn',
        ...this.options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.pipe(this.log, { end: false });
    child.stderr!.pipe(this.log, { end: false });
    let exited: number | null | undefined;
    child.once('exit', (code) => (exited = code));
    await until(
      'the server process answers its health check',
      async () => {
        if (exited !== undefined)
          throw new Error(`the server process exited (${exited}); see ${this.logFile}`);
        return (await fetch(`${this.url}/v1/health`)).status === 200;
      },
      60_000,
      200,
    );
  }

  /** SIGKILL, as the kernel's OOM killer or a pulled plug would; resolves once it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }

  /** SIGTERM: the graceful stop. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await gone;
    clearTimeout(timer);
    this.log.end();
  }
}
