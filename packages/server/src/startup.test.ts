import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listenUrl, loadConfig } from './config.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed/index.ts';
import { startupLines } from './startup.ts';

/*
 * Issue 30 item 18: the console printed http://127.0.0.1:8080 while emails linked to
 * http://localhost:8080, another origin (signed out there, the language not remembered) and, for a
 * device, another address family. The address people are told at start-up is the one emails and
 * firmware downloads carry: PUBLIC_URL, by default the address the server listens on.
 */

const dataDir = () => mkdtempSync(join(tmpdir(), 'fbx-startup-'));
const running = { messaging: { describe: 'embedded broker' }, demoFleet: { running: 0 } };
const demo = { accounts: DEMO_ACCOUNTS, password: DEMO_PASSWORD };

describe('the address printed at start-up', () => {
  it('is the one emails link to, by default the address the server listens on', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    const listening = listenUrl(config.host, config.port);
    expect(listening).toBe('http://127.0.0.1:8080');
    expect(config.publicUrl).toBe(listening);
    const lines = startupLines(config, running, demo);
    expect(lines).toContain(`Flowbox Manager is running: ${config.publicUrl}`);
    expect(lines).toContain(`  API docs:  ${config.publicUrl}/v1/docs`);
    expect(lines.join('\n')).not.toContain('localhost');
    expect(lines.join('\n')).not.toContain('Listening on');
  });

  it('names the host it listens on: every interface is reached as localhost, IPv6 in brackets', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), HOST: '0.0.0.0', PORT: '3000' }).publicUrl).toBe(
      'http://localhost:3000',
    );
    expect(listenUrl('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(loadConfig({ DATA_DIR: dataDir(), HOST: '::1' }).publicUrl).toBe('http://[::1]:8080');
    expect(listenUrl('::', 8080)).toBe('http://localhost:8080');
  });

  it('prints PUBLIC_URL when it is set, and where the server listens beside it', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://flowbox.example.com/' });
    expect(config.publicUrl).toBe('https://flowbox.example.com');
    const lines = startupLines(config, running, demo);
    expect(lines).toContain('Flowbox Manager is running: https://flowbox.example.com');
    expect(lines).toContain('  Listening on: http://127.0.0.1:8080');
  });
});
