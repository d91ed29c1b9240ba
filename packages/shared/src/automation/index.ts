export * from './settings.ts';
export * from './detection.ts';
export * from './clock.ts';
export * from './backtest.ts';
export * from './leaks.ts';
export * from './away.ts';
