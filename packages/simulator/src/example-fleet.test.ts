import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELP, parseDevices, runCli } from './cli.ts';
import { exampleFleet } from './example-fleet.ts';

/* Issue #15: the README says what goes in fleet.json, with an example the simulator itself wrote. */

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The README's fleet.json example: the json block after "flowbox-sim example-fleet". */
function readmeExample(): string {
  const match = /npx flowbox-sim example-fleet > fleet\.json\n```\n\n[^`]*```json\n([\s\S]*?)```/.exec(
    README,
  );
  if (!match) throw new Error('no fleet.json example in the README');
  return match[1]!;
}

describe('flowbox-sim example-fleet', () => {
  it('prints a fleet.json the simulator reads back, one device to pair and one already paired', async () => {
    const lines: string[] = [];
    expect(await runCli(['example-fleet'], { log: (l) => lines.push(l), error: (l) => lines.push(l) })).toBe(
      0,
    );
    const printed = JSON.parse(lines.join('\n')) as unknown;
    expect(printed).toEqual(exampleFleet());
    const devices = parseDevices(printed, 'example');
    expect(devices.map((d) => Boolean(d.factory_secret))).toEqual([true, false]);
    expect(devices[1]).toMatchObject({ username: devices[1]!.serial });
    expect(HELP).toContain('example-fleet');
  });

  it('is the README’s example, and the README’s example parses with the simulator’s own parser', () => {
    const text = readmeExample();
    expect(JSON.parse(text)).toEqual(exampleFleet());
    expect(() => parseDevices(JSON.parse(text), 'README.md')).not.toThrow();
    // Every field the parser knows is shown, and explained in the README's table.
    for (const field of [
      'serial',
      'username',
      'password',
      'factory_secret',
      'profile',
      'timezone',
      'water_points',
      'model',
      'water_temperature',
    ])
      expect(README).toContain(`| \`${field}\``);
  });
});
