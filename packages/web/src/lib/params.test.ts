import { describe, expect, it } from 'vitest';
import { queryWriter } from './params.ts';

const query = (text: string) => new URLSearchParams(text);

describe('the address query written by changes', () => {
  it('keeps two changes made before the render caught up: the second starts from the first', () => {
    const write = queryWriter();
    const rendered = query('sort=serial');
    expect(write(rendered, { firmware_version: '9.9.9' }).toString()).toBe(
      'sort=serial&firmware_version=9.9.9',
    );
    // The search's pause ends before the page drew the version: the render still shows the old query.
    expect(write(rendered, { q: 'ZZZ' }).toString()).toBe('sort=serial&firmware_version=9.9.9&q=ZZZ');
  });

  it('starts from the render once it shows anything else: the write itself, a link, the back button', () => {
    const write = queryWriter();
    const first = write(query('a=1'), { b: '2' });
    expect(write(first, { c: '3' }).toString()).toBe('a=1&b=2&c=3');
    // Another hand changed the address (a link to a filtered list): its query is the base.
    expect(write(query('z=9'), { c: undefined, d: '4' }).toString()).toBe('z=9&d=4');
  });

  it('takes keys away with undefined or an empty value, and replaces the whole query when given one', () => {
    const write = queryWriter();
    expect(write(query('a=1&b=2'), { a: undefined, b: '' }).toString()).toBe('');
    const rendered = query('a=1&b=2');
    write(rendered, { c: '3' });
    expect(write(rendered, new URLSearchParams()).toString()).toBe('');
    expect(write(rendered, { d: '4' }).toString()).toBe('d=4');
  });

  it('hands out copies: changing what it returned changes nothing it keeps', () => {
    const write = queryWriter();
    const rendered = query('a=1');
    write(rendered, { b: '2' }).set('evil', '1');
    expect(write(rendered, { c: '3' }).toString()).toBe('a=1&b=2&c=3');
  });
});
