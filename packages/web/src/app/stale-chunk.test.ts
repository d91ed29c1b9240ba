import { describe, expect, it } from 'vitest';
import { isMissingChunk } from './stale-chunk.ts';

describe('isMissingChunk', () => {
  it('recognises a chunk a deploy removed, as each browser words it', () => {
    const chromium = new TypeError(
      'Failed to fetch dynamically imported module: https://app.example/assets/pages-abc.js',
    );
    const firefox = new TypeError('error loading dynamically imported module: https://app.example/x.js');
    const safari = new TypeError('Importing a module script failed.');
    const vitePreload = new Error('Unable to preload CSS for /assets/pages-abc.css');
    for (const error of [chromium, firefox, safari, vitePreload]) expect(isMissingChunk(error)).toBe(true);
  });

  it('leaves other errors to the error page', () => {
    expect(isMissingChunk(new Error('The API server encountered an error'))).toBe(false);
    expect(isMissingChunk('Failed to fetch dynamically imported module')).toBe(false);
  });
});
