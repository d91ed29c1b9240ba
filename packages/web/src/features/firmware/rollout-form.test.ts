import { RolloutCreateSchema, type FirmwareImage } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import {
  rolloutFormValues,
  rolloutProblems,
  toRolloutInput,
  type RolloutFormValues,
} from './rollout-form.ts';

const IMAGE_ID = '0b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10';
const CUSTOMER = '1b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10';
const SITE = '2b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10';
const image = { id: IMAGE_ID, models: ['one_inch_v1', 'two_inches_v1'] } as FirmwareImage;

const form = (patch: Partial<RolloutFormValues> = {}) => ({
  ...rolloutFormValues(image, CUSTOMER),
  ...patch,
});
const problems = (values: RolloutFormValues, siteRequired = false) =>
  rolloutProblems(toRolloutInput(IMAGE_ID, values), 'en', { siteRequired });

describe('the rollout form as the API takes it', () => {
  it('starts from the documented defaults over the image’s models, and passes the shared schema', () => {
    const input = toRolloutInput(IMAGE_ID, form());
    expect(input).toEqual({
      image_id: IMAGE_ID,
      target: { customer_id: CUSTOMER, site_id: undefined, building_id: undefined, zone_id: undefined },
      models: ['one_inch_v1', 'two_inches_v1'],
      waves_pct: [5, 25, 50, 100],
      start_jitter_s: 300,
      max_concurrent: 50,
      failure_threshold_pct: 10,
      during_opening_hours: false,
    });
    expect(RolloutCreateSchema.safeParse(input).success).toBe(true);
    expect(problems(form())).toEqual([]);
  });

  it('leaves a provider’s empty customer out: the whole fleet', () => {
    const input = toRolloutInput(IMAGE_ID, { ...rolloutFormValues(image, null) });
    expect(input.target).toEqual({});
    expect(JSON.parse(JSON.stringify(input)).target).toEqual({});
  });

  it('reads versions separated by commas or spaces, and a French decimal comma', () => {
    const input = toRolloutInput(
      IMAGE_ID,
      form({
        from_versions: '2.4.0, 2.4.1;2.4.2  ',
        waves: [{ pct: '2,5' }, { pct: '100' }],
        failure_threshold_pct: '7,5',
      }),
    );
    expect(input.from_versions).toEqual(['2.4.0', '2.4.1', '2.4.2']);
    expect(input.waves_pct).toEqual([2.5, 100]);
    expect(input.failure_threshold_pct).toBe(7.5);
  });

  it('leaves an emptied number to the API’s default', () => {
    const input = toRolloutInput(IMAGE_ID, form({ start_jitter_s: ' ', max_concurrent: '' }));
    expect(input.start_jitter_s).toBeUndefined();
    expect(RolloutCreateSchema.parse(input).max_concurrent).toBe(50);
  });

  it('puts each problem on its field, in the user’s language', () => {
    expect(problems(form({ waves: [{ pct: '5' }, { pct: 'abc' }] }))).toEqual([
      { field: 'waves.1.pct', message: 'Must be a number' },
    ]);
    expect(problems(form({ waves: [{ pct: '50' }, { pct: '25' }] }))).toEqual([
      { field: 'waves', message: 'Each value must be greater than the one before' },
    ]);
    expect(problems(form({ max_concurrent: '0', from_versions: '2.4' }))).toEqual([
      { field: 'from_versions', message: 'Please enter a version as MAJOR.MINOR.PATCH, such as 2.5.0' },
      { field: 'max_concurrent', message: 'Number must be greather or equal to 1' },
    ]);
    expect(problems(form({ models: [] }))).toEqual([{ field: 'models', message: 'This field is required' }]);
    expect(
      rolloutProblems(toRolloutInput(IMAGE_ID, form({ start_jitter_s: '100000' })), 'fr', {
        siteRequired: false,
      }),
    ).toEqual([{ field: 'start_jitter_s', message: 'Doit être inférieur ou égal à 86400' }]);
  });

  it('asks a site manager for one of its sites, not the whole customer', () => {
    expect(problems(form(), true)).toEqual([{ field: 'site_id', message: 'This field is required' }]);
    expect(problems(form({ site_id: SITE }), true)).toEqual([]);
  });
});
