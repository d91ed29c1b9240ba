/**
 * The components firmware lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { FlowboxFirmwareCard } from './components/FlowboxFirmwareCard.tsx';
