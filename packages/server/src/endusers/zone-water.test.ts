import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../events/index.ts';
import { waterClosing } from './zone-water.service.ts';

/* "Water off since … by whom" (issue 33, docs/residents.md "Who closed the water"), from the log. */

const at = (minute: number) => new Date(Date.UTC(2026, 11, 20, 8, minute));
const line = (
  action: LoggedEvent['action'],
  minute: number,
  origin: LoggedEvent['origin'],
  userName: string | null = null,
): LoggedEvent => ({
  action,
  at: at(minute),
  origin,
  userName,
});

describe("who closed a zone's water", () => {
  it('a person, by a command from the app: named', () => {
    expect(waterClosing([line('valve_closed', 5, 'web', 'Rosa Resident')])).toEqual({
      since: at(5),
      by: 'person',
      name: 'Rosa Resident',
    });
  });

  it('someone by hand on the device', () => {
    expect(waterClosing([line('valve_closed', 5, 'device')])).toMatchObject({ since: at(5), by: 'device' });
  });

  it('the system, named by its closing logged at or before the confirmation', () => {
    const system = (cause: LoggedEvent['action']) =>
      waterClosing([
        line('valve_closed', 6, 'system'),
        line(cause, 5, 'system'),
        line('valve_opened', 1, 'web', 'X'),
      ]);
    expect(system('automatic_closing_triggered')).toMatchObject({ since: at(6), by: 'automatic_closing' });
    expect(system('scheduled_closing_started')).toMatchObject({ by: 'schedule' });
    expect(system('away_closing')).toMatchObject({ by: 'away_mode' });
    // Same instant (the confirmation in the closing's own second): still found.
    expect(
      waterClosing([line('away_closing', 6, 'system'), line('valve_closed', 6, 'system')]),
    ).toMatchObject({ by: 'away_mode' });
  });

  it('the latest closing wins; an opening after it, or no closing in the log, is not known', () => {
    expect(
      waterClosing([
        line('valve_closed', 9, 'device'),
        line('valve_opened', 8, 'web', 'Rosa Resident'),
        line('valve_closed', 4, 'web', 'Cara Manager'),
      ]),
    ).toMatchObject({ by: 'device', since: at(9) });
    expect(waterClosing([line('valve_opened', 9, 'web', 'Rosa'), line('valve_closed', 4, 'device')])).toEqual(
      {
        since: null,
        by: 'unknown',
        name: null,
      },
    );
    expect(waterClosing([])).toMatchObject({ by: 'unknown', since: null });
    expect(waterClosing([line('valve_closed', 3, 'system')])).toMatchObject({ by: 'unknown', since: at(3) });
  });
});
