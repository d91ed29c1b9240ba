/**
 * Where a run of the set-up assistant stands (spec §2 /assistant). Every step saves its record
 * through the API as it goes, so the progress is only ids and a step: kept in the address (a
 * reload or a shared link resumes) and on this browser per user (coming back later resumes).
 */
export const ASSISTANT_STEPS = ['site', 'building', 'floors', 'zone', 'water-points', 'done'] as const;
export type AssistantStep = (typeof ASSISTANT_STEPS)[number];

export type AssistantProgress = {
  step: AssistantStep;
  siteId?: string;
  buildingId?: string;
  zoneId?: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PARAM = { siteId: 'site', buildingId: 'building', zoneId: 'zone' } as const;

/** What each step needs from the earlier ones. */
const NEEDS: Record<AssistantStep, (keyof typeof PARAM)[]> = {
  site: [],
  building: ['siteId'],
  floors: ['siteId', 'buildingId'],
  zone: ['siteId', 'buildingId'],
  'water-points': ['siteId', 'buildingId', 'zoneId'],
  done: ['siteId', 'buildingId', 'zoneId'],
};

/**
 * Reads progress from the address. A step whose earlier records are missing falls back to the
 * furthest step they allow; ids that are not uuids are ignored, never sent to the server.
 */
export function parseProgress(search: URLSearchParams): AssistantProgress {
  const progress: AssistantProgress = { step: 'site' };
  for (const [key, param] of Object.entries(PARAM) as [keyof typeof PARAM, string][]) {
    const value = search.get(param);
    if (value && UUID.test(value)) progress[key] = value;
  }
  // A later id without the earlier ones is no path through the hierarchy.
  if (!progress.siteId) delete progress.buildingId;
  if (!progress.buildingId) delete progress.zoneId;
  const asked = search.get('step');
  const wanted = (ASSISTANT_STEPS as readonly string[]).includes(asked ?? '')
    ? (asked as AssistantStep)
    : furthestStep(progress);
  progress.step = reachable(wanted, progress) ? wanted : furthestStep(progress);
  return progress;
}

export function reachable(step: AssistantStep, progress: AssistantProgress): boolean {
  return NEEDS[step].every((key) => progress[key] !== undefined);
}

function furthestStep(progress: AssistantProgress): AssistantStep {
  if (progress.zoneId) return 'water-points';
  if (progress.buildingId) return 'floors';
  if (progress.siteId) return 'building';
  return 'site';
}

export function progressSearch(progress: AssistantProgress): string {
  const search = new URLSearchParams();
  search.set('step', progress.step);
  for (const [key, param] of Object.entries(PARAM) as [keyof typeof PARAM, string][]) {
    const value = progress[key];
    if (value) search.set(param, value);
  }
  return search.toString();
}

const storageKey = (userId: string) => `flowbox.assistant.${userId}`;

/** The run this user left unfinished on this browser, if any. */
export function savedProgress(userId: string): AssistantProgress | null {
  const saved = window.localStorage.getItem(storageKey(userId));
  if (!saved) return null;
  const progress = parseProgress(new URLSearchParams(saved));
  return progress.siteId ? progress : null;
}

export function saveProgress(userId: string, progress: AssistantProgress): void {
  if (progress.step === 'done' || !progress.siteId) window.localStorage.removeItem(storageKey(userId));
  else window.localStorage.setItem(storageKey(userId), progressSearch(progress));
}

export function forgetProgress(userId: string): void {
  window.localStorage.removeItem(storageKey(userId));
}
