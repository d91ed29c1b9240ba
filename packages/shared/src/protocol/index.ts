export * from './topics.ts';
export * from './messages.ts';
export * from './parse.ts';
export * from './timestamps.ts';
