export * from './topics.ts';
export * from './messages.ts';
export * from './parse.ts';
