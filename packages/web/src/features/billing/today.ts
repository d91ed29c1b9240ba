import { localDate } from '@flowbox/shared';

/** Today on this browser's clock, as the date fields take it (yyyy-MM-dd). */
export const browserToday = (): string =>
  localDate(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);
