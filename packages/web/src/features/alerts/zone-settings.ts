import type { AlertCategory, User } from '@flowbox/shared';

export type ZoneSettings = User['alerts_instance_settings'];
/** A zone's choice for a category: follow the user's own setting, or its own email flag. */
export type ZoneChoice = 'inherit' | 'on' | 'off';

export function choiceOf(settings: ZoneSettings, zoneId: string, category: AlertCategory): ZoneChoice {
  const email = settings[zoneId]?.[category]?.email;
  return email === undefined ? 'inherit' : email ? 'on' : 'off';
}

/**
 * The whole map with one choice changed, as the profile update replaces it: only zones still
 * followed (a deleted zone, or a site no longer assigned, would be refused), no empty zone.
 */
export function withChoice(
  settings: ZoneSettings,
  followed: readonly string[],
  zoneId: string,
  category: AlertCategory,
  choice: ZoneChoice,
): ZoneSettings {
  const next: ZoneSettings = {};
  for (const id of followed) if (settings[id]) next[id] = { ...settings[id] };
  const zone = { ...next[zoneId] };
  if (choice === 'inherit') delete zone[category];
  else zone[category] = { email: choice === 'on' };
  if (Object.keys(zone).length > 0) next[zoneId] = zone;
  else delete next[zoneId];
  return next;
}

/** How many categories a zone decides for itself. */
export const ownChoices = (settings: ZoneSettings, zoneId: string) =>
  Object.keys(settings[zoneId] ?? {}).length;
