/**
 * What the rest of the server may use of the consumption domain (docs/architecture.md): its graph
 * windows and calendar steps, pure functions of a day and a time zone. Reports read its figures
 * through the service, which app.ts passes them.
 */
export { addMonths, dailyPlan, planWindow, startOfWeek, type Bucket, type WindowPlan } from './windows.ts';
