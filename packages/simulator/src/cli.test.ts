import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError, fleetOptionsFrom, HELP, parseCliOptions, runCli, type CliOptions } from './cli.ts';
import { DeviceObserver, startAedes, uniqueSerial, type TestBroker } from './test-helpers.ts';

function parse(argv: string[]): CliOptions {
  const options = parseCliOptions(argv);
  if (options === 'help') throw new Error('help');
  return options;
}

describe('flowbox-sim options', () => {
  it('documents every option in --help', () => {
    const options = [
      'broker',
      'count',
      'serial-prefix',
      'devices',
      'pair',
      'profile',
      'water-points',
      'timezone',
      'model',
      'water-temperature',
      'interval',
      'speed',
      'seed',
      'clock-skew',
      'heartbeat',
      'duration',
      'fault',
      'offline',
      'autotest-result',
      'firmware-fault',
      'firmware-retry',
      'load',
      'connect-concurrency',
      'report',
      'help',
    ];
    for (const option of options) expect(HELP).toContain(`--${option}`);
    expect(parseCliOptions(['--help'])).toBe('help');
  });

  it('reads a full command line', () => {
    const options = parse([
      '--count=3',
      '--serial-prefix=LOAD',
      '--profile=housing',
      '--water-points=shower:2,toilet:3',
      '--speed=60',
      '--seed=9',
      '--clock-skew=-30',
      '--fault=burst_pipe:LOAD-0002',
      '--fault=slow_leak',
      '--offline=300+120:LOAD-0003',
      '--autotest-result=some_skipped',
    ]);
    expect(options.devices.map((d) => d.serial)).toEqual(['LOAD-0001', 'LOAD-0002', 'LOAD-0003']);
    expect(options.zone.water_points).toEqual([
      { type: 'shower', count: 2 },
      { type: 'toilet', count: 3 },
    ]);
    const fleet = fleetOptionsFrom(options, 1_000_000);
    expect(fleet.devices.map((d) => d.faults?.map((f) => f.kind))).toEqual([
      ['slow_leak'],
      ['burst_pipe', 'slow_leak'],
      ['slow_leak'],
    ]);
    expect(fleet.devices[0]).toMatchObject({ clockSkewMs: -30_000, autotestResult: 'some_skipped' });
    expect(fleet.offline).toEqual([{ from: 1_300_000, until: 1_420_000, serials: ['LOAD-0003'] }]);
  });

  it('gives firmware faults to every device, a share of the fleet picked by the seed, or one device', () => {
    const options = parse([
      '--count=40',
      '--seed=5',
      '--firmware-retry=0.5',
      '--firmware-fault=slow=65536',
      '--firmware-fault=corrupt:10%',
      '--firmware-fault=silent:0.05',
      '--firmware-fault=interrupted=500000:SIM-0007',
    ]);
    expect(options.firmwareFaults).toEqual([
      { fault: { kind: 'slow', bytesPerS: 65_536 } },
      { fault: { kind: 'corrupt' }, share: 0.1 },
      { fault: { kind: 'silent', atPct: 50 }, share: 0.05 },
      { fault: { kind: 'interrupted', afterBytes: 500_000 }, serials: ['SIM-0007'] },
    ]);
    const fleet = fleetOptionsFrom(options, 0);
    expect(fleet.firmwareFaults).toBe(options.firmwareFaults);
    expect(fleet.devices[0]?.firmwareRetryDelayMs).toBe(500);
  });

  it.each([
    [['--speed=fast'], '--speed'],
    [['--interval=0'], '--interval'],
    [['--profile=castle'], '--profile'],
    [['--water-points=jacuzzi:1'], '--water-points'],
    [['--fault=flood'], '--fault'],
    [['--fault=slow_leak:NOPE-1'], 'no simulated device'],
    [['--offline=soon'], '--offline'],
    [['--firmware-fault=melt'], '--firmware-fault'],
    [['--firmware-fault=slow'], 'slow needs =<bytes/s>'],
    [['--firmware-fault=silent=120'], '--firmware-fault'],
    [['--firmware-fault=corrupt:150%'], 'more than the whole fleet'],
    [['--firmware-fault=rollback:NOPE-1'], 'no simulated device'],
    [['--timezone=Mars/Olympus'], '--timezone'],
    [['--broker=http://x'], '--broker'],
    [['--pair'], '--pair'],
    [['--devices=/nonexistent.json'], '--devices'],
    [['--colour'], 'colour'],
  ])('refuses %j, naming the option', (argv, words) => {
    expect(() => parseCliOptions(argv)).toThrow(CliError);
    expect(() => parseCliOptions(argv)).toThrow(words);
  });
});

describe('flowbox-sim run', () => {
  let broker: TestBroker;
  beforeAll(async () => {
    broker = await startAedes();
  });
  afterAll(async () => {
    await broker.close();
  });

  it('runs a fleet against a broker and reports its rate', async () => {
    const prefix = uniqueSerial('cli');
    const observer = await DeviceObserver.watch(broker.url, `${prefix}-0002`);
    const lines: string[] = [];
    const stop = new AbortController();
    const run = runCli(
      [
        `--broker=${broker.url}`,
        '--count=2',
        `--serial-prefix=${prefix}`,
        '--interval=1',
        '--duration=30',
        '--report=0.2',
        '--load',
      ],
      { log: (line) => lines.push(line), error: (line) => lines.push(line) },
      stop.signal,
    );
    await observer.waitFor('three readings', () => observer.of('telemetry').length >= 3);
    expect(
      observer
        .of('telemetry')
        .map((t) => t.seq)
        .slice(0, 3),
    ).toEqual([1, 2, 3]);
    stop.abort();
    expect(await run).toBe(0);
    expect(lines.some((l) => /connected 2\/2 published \d+ \(\d+\.\d msg\/s\)/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/stopped; \d+ messages published/);
    await observer.close();
  });

  it('answers 2 and a hint on a bad option', async () => {
    const lines: string[] = [];
    expect(await runCli(['--count=0'], { log: (l) => lines.push(l), error: (l) => lines.push(l) })).toBe(2);
    expect(lines.join('\n')).toContain('--help');
  });
});
