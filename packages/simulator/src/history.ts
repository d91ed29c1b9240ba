import type { FlowboxModel } from '@flowbox/shared';
import { ambientReading, ConsumptionModel, localTimeReader, type ZoneSpec } from './consumption.ts';
import { seededRandom } from './random.ts';

/** One past reading, as a device would have sent it: the interval ending at `at` (epoch ms). */
export type PastReading = {
  at: number;
  intervalS: number;
  volumeL: number;
  flowS: number;
  temperatureC: number;
  humidityPct: number;
};

export type PastReadingsOptions = {
  zone: ZoneSpec;
  model?: FlowboxModel;
  seed: number;
  /** Epoch ms; readings end on `intervalS` after `from`, the last one at or before `until`. */
  from: number;
  until: number;
  intervalS: number;
};

/**
 * What a zone would have drawn over a past stretch, reading by reading: the same consumption model
 * and ambient sensors a live device runs (device.ts), on a simulated clock, with the valve open
 * all along. Deterministic for one seed; yielded in order, one at a time, so a year of readings
 * never has to sit in memory at once.
 */
export function* pastReadings(options: PastReadingsOptions): Generator<PastReading> {
  const random = seededRandom(options.seed);
  // Uses start in steps of the reading's interval (up to a quarter hour, on the hour): the
  // hour weights hold and a year is drawn in a fraction of the minute-by-minute time.
  const consumption = new ConsumptionModel(options.zone, options.model ?? 'one_inch_v1', random, [], {
    sampleStepMs: Math.min(options.intervalS, 900) * 1000,
  });
  const localTime = localTimeReader(options.zone.timezone);
  const step = options.intervalS * 1000;
  for (let start = options.from; start + step <= options.until; start += step) {
    const at = start + step;
    const drawn = consumption.advance(start, at, true);
    const ambient = ambientReading(random, localTime(at).hour);
    yield {
      at,
      intervalS: options.intervalS,
      volumeL: drawn.volumeL,
      flowS: Math.min(options.intervalS, drawn.flowS),
      temperatureC: ambient.temperatureC,
      humidityPct: ambient.humidityPct,
    };
  }
}
