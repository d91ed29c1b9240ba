/**
 * What the rest of the server may use of the consumption domain (docs/architecture.md): its graph
 * windows, pure functions of a day and a time zone. No other domain reads consumption data today;
 * the service is wired by app.ts.
 */
export { dailyPlan, planWindow, type Bucket, type WindowPlan } from './windows.ts';
