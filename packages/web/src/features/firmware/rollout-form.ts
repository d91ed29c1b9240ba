import {
  describeIssues,
  ROLLOUT_DEFAULTS,
  RolloutCreateSchema,
  translate,
  type FirmwareImage,
  type FlowboxModel,
  type Language,
  type RolloutCreateInput,
} from '@flowbox/shared';
import { decimalText } from '../../lib/form-values.ts';

/** What the rollout form edits: text as typed; `toRolloutInput` turns it into the API's shape. */
export type RolloutFormValues = {
  customer_id: string;
  site_id: string;
  building_id: string;
  zone_id: string;
  models: FlowboxModel[];
  /** Versions the devices must run now, separated by spaces, commas or semicolons; empty for any. */
  from_versions: string;
  /** Cumulative percentages, one box per wave. */
  waves: { pct: string }[];
  start_jitter_s: string;
  max_concurrent: string;
  failure_threshold_pct: string;
  during_opening_hours: boolean;
};

export type FieldProblem = { field: string; message: string };

/** The documented defaults (docs/firmware.md), over the image's models, in the user's own place. */
export function rolloutFormValues(image: FirmwareImage, customerId: string | null): RolloutFormValues {
  return {
    customer_id: customerId ?? '',
    site_id: '',
    building_id: '',
    zone_id: '',
    models: [...image.models],
    from_versions: '',
    waves: ROLLOUT_DEFAULTS.wavesPct.map((pct) => ({ pct: String(pct) })),
    start_jitter_s: String(ROLLOUT_DEFAULTS.startJitterS),
    max_concurrent: String(ROLLOUT_DEFAULTS.maxConcurrent),
    failure_threshold_pct: String(ROLLOUT_DEFAULTS.failureThresholdPct),
    during_opening_hours: ROLLOUT_DEFAULTS.duringOpeningHours,
  };
}

/** A number typed in a box: empty leaves the API's default; "2,5" is read as 2.5; "abc" stays NaN for the schema to refuse. */
const numberOf = (text: string): number | undefined => {
  const typed = decimalText(text);
  return typed === '' ? undefined : Number(typed);
};

/** The form as the API takes it: empty places and filters are left out, the rest read as numbers. */
export function toRolloutInput(imageId: string, values: RolloutFormValues): RolloutCreateInput {
  const place = (id: string) => (id ? id : undefined);
  const versions = values.from_versions.split(/[\s,;]+/).filter(Boolean);
  return {
    image_id: imageId,
    target: {
      customer_id: place(values.customer_id),
      site_id: place(values.site_id),
      building_id: place(values.building_id),
      zone_id: place(values.zone_id),
    },
    ...(versions.length > 0 ? { from_versions: versions } : {}),
    models: values.models,
    waves_pct: values.waves.map((wave) => numberOf(wave.pct) ?? Number.NaN),
    start_jitter_s: numberOf(values.start_jitter_s),
    max_concurrent: numberOf(values.max_concurrent),
    failure_threshold_pct: numberOf(values.failure_threshold_pct),
    during_opening_hours: values.during_opening_hours,
  };
}

/** The form field a schema issue belongs to: a wave's box, a place picker, or the field itself. */
function fieldOf(path: string): string {
  const [first = '', second] = path.split('.');
  if (first === 'target') return second ?? 'customer_id';
  if (first === 'waves_pct') return second === undefined ? 'waves' : `waves.${second}.pct`;
  return first;
}

/**
 * The shared schema's verdict on the form (the server checks the same again), each problem on its
 * field in the user's language. A site manager's rollout needs one of its sites: its scope is
 * its sites, not the whole customer (docs/firmware.md "Who may do what").
 */
export function rolloutProblems(
  input: RolloutCreateInput,
  language: Language,
  { siteRequired }: { siteRequired: boolean },
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (siteRequired && !input.target.site_id)
    problems.push({ field: 'site_id', message: translate('validation.required', language) });
  const parsed = RolloutCreateSchema.safeParse(input);
  if (!parsed.success)
    for (const issue of describeIssues(parsed.error.issues, language))
      problems.push({ field: fieldOf(issue.path), message: issue.message });
  return problems;
}
