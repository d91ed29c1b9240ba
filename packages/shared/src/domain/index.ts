export * from './buildings.ts';
export * from './flowboxes.ts';
export * from './zones.ts';
