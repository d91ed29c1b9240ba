import { describe, expect, it } from 'vitest';
import { firmwareFaultsBySerial, serialsCarrying } from './firmware-faults.ts';

const fleet = Array.from({ length: 500 }, (_, i) => `SIM-${String(i + 1).padStart(4, '0')}`);

describe('firmware faults over a fleet', () => {
  it('gives a share to exactly that many devices, the same ones for the same seed in any order', () => {
    const picked = serialsCarrying(fleet, 0.05, 7, 'corrupt');
    expect(picked.size).toBe(25);
    expect(serialsCarrying([...fleet].reverse(), 0.05, 7, 'corrupt')).toEqual(picked);
    expect(serialsCarrying(fleet, 0.05, 8, 'corrupt')).not.toEqual(picked);
    expect(serialsCarrying(fleet, 0.05, 7, 'rollback')).not.toEqual(picked);
    expect(serialsCarrying(fleet, 0, 7, 'corrupt').size).toBe(0);
    expect(serialsCarrying(fleet, 1, 7, 'corrupt').size).toBe(500);
  });

  it('adds fleet-wide, shared and named faults to each serial', () => {
    const faults = firmwareFaultsBySerial(
      fleet,
      [
        { fault: { kind: 'slow', bytesPerS: 1000 } },
        { fault: { kind: 'rollback' }, share: 0.1 },
        { fault: { kind: 'silent', atPct: 30 }, serials: ['SIM-0002'] },
      ],
      3,
    );
    expect([...faults.values()].every((f) => f[0]?.kind === 'slow')).toBe(true);
    expect([...faults.values()].filter((f) => f.some((x) => x.kind === 'rollback'))).toHaveLength(50);
    expect(faults.get('SIM-0002')).toContainEqual({ kind: 'silent', atPct: 30 });
    expect([...faults.values()].filter((f) => f.some((x) => x.kind === 'silent'))).toHaveLength(1);
  });
});
