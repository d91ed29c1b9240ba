import {
  describeIssues,
  FIRMWARE_MAX_BYTES,
  FirmwareImageCreateSchema,
  firmwareFileName,
  firmwareNameMatches,
  parseFirmwareFileName,
  translate,
  type FirmwareImageCreateInput,
  type FlowboxModel,
  type Language,
} from '@flowbox/shared';

/** What the upload form edits besides the file; `released_to` is "all" or the chosen customers. */
export type UploadFormValues = {
  version: string;
  models: FlowboxModel[];
  notes_en: string;
  notes_fr: string;
  release: 'all' | 'customers';
  customer_ids: string[];
};

export const emptyUploadValues: UploadFormValues = {
  version: '',
  models: [],
  notes_en: '',
  notes_fr: '',
  release: 'all',
  customer_ids: [],
};

/**
 * A file named by the convention (`flowbox-one_inch_v1-2.5.0.bin`) fills the version and the
 * models, so the common case is a drop and a click; other fields stay as typed.
 */
export function valuesFromFileName(fileName: string, values: UploadFormValues): UploadFormValues {
  const parsed = parseFirmwareFileName(fileName);
  return parsed ? { ...values, version: parsed.version, models: parsed.models } : values;
}

/**
 * Refuses before sending what the server would refuse anyway (docs/firmware.md "Catalogue"), in
 * the catalogue's words: an empty or too large file, a name that does not say the declared
 * models and version. The server checks all of it again, and duplicates.
 */
export function uploadProblem(
  file: { name: string; size: number },
  declared: { version: string; models: readonly FlowboxModel[] },
  language: Language,
): string | null {
  if (file.size === 0) return translate('errors.firmware_empty', language);
  if (file.size > FIRMWARE_MAX_BYTES)
    return translate('errors.firmware_too_large', language, { max: FIRMWARE_MAX_BYTES / (1024 * 1024) });
  if (declared.models.length > 0 && declared.version && !firmwareNameMatches(file.name, declared))
    return translate('errors.firmware_naming', language, {
      expected: firmwareFileName(declared.models, declared.version),
    });
  return null;
}

/** The form as the API reads it (FirmwareImageCreateSchema). */
export function toImageInput(values: UploadFormValues): FirmwareImageCreateInput {
  return {
    version: values.version,
    models: values.models,
    notes_en: values.notes_en,
    notes_fr: values.notes_fr,
    released_to: values.release === 'all' ? 'all' : values.customer_ids,
  };
}

/**
 * The multipart body: the fields first, the file last, so a server that streams the file into
 * storage knows what it receives before the bytes come. Lists are comma-separated (the contract
 * allows `models` so; customer ids hold no comma).
 */
export function imageFormData(input: FirmwareImageCreateInput, file: File): FormData {
  const body = new FormData();
  body.append('version', input.version);
  body.append('models', input.models.join(','));
  if (input.notes_en) body.append('notes_en', input.notes_en);
  if (input.notes_fr) body.append('notes_fr', input.notes_fr);
  body.append('released_to', input.released_to === 'all' ? 'all' : input.released_to.join(','));
  body.append('file', file, file.name);
  return body;
}

export type FieldProblem = { field: keyof UploadFormValues; message: string };

/**
 * The form checked by the shared schema, each problem on its field (`released_to.2` is the
 * customers' list), and a release to "some customers" that names none: an image nobody but the
 * provider could see is a mistake, not a choice.
 */
export function uploadFieldProblems(values: UploadFormValues, language: Language): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const parsed = FirmwareImageCreateSchema.safeParse(toImageInput(values));
  if (!parsed.success)
    for (const issue of describeIssues(parsed.error.issues, language)) {
      const field = issue.path.startsWith('released_to') ? 'customer_ids' : issue.path.split('.')[0];
      problems.push({ field: field as keyof UploadFormValues, message: issue.message });
    }
  if (values.release === 'customers' && values.customer_ids.length === 0)
    problems.push({ field: 'customer_ids', message: translate('validation.required', language) });
  return problems;
}
