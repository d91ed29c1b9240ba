/**
 * The components schedules lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { ZoneSchedulesCard } from './components/ZoneSchedulesCard.tsx';
