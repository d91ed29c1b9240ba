export * from './settings.ts';
export * from './detection.ts';
