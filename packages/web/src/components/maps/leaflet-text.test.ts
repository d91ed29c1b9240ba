import { describe, expect, it } from 'vitest';
import { creditParts } from './leaflet-text.ts';

describe('the tiles’ credit', () => {
  it('is text with its [label](https://…) links, the rest as written, markup included', () => {
    expect(creditParts('© [OpenStreetMap](https://www.openstreetmap.org/copyright) contributors')).toEqual([
      { text: '© ' },
      { text: 'OpenStreetMap', href: 'https://www.openstreetmap.org/copyright' },
      { text: ' contributors' },
    ]);
    expect(creditParts('<b>x</b> [y](javascript:alert(1))')).toEqual([
      { text: '<b>x</b> [y](javascript:alert(1))' },
    ]);
  });
});
