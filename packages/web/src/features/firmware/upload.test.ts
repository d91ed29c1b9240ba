import { FIRMWARE_MAX_BYTES, FirmwareImageCreateSchema } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import {
  emptyUploadValues,
  imageFormData,
  toImageInput,
  uploadFieldProblems,
  uploadProblem,
  valuesFromFileName,
} from './upload.ts';

const CUSTOMER_A = '1b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10';
const CUSTOMER_B = '2b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10';

describe('uploading a firmware image', () => {
  it('reads the version and the models from a conventional file name, and nothing from another', () => {
    const notes = { ...emptyUploadValues, notes_en: 'Fixes' };
    expect(valuesFromFileName('flowbox-half_inch_v1+one_inch_v1-2.5.0.bin', notes)).toEqual({
      ...notes,
      version: '2.5.0',
      models: ['half_inch_v1', 'one_inch_v1'],
    });
    expect(valuesFromFileName('firmware.bin', notes)).toBe(notes);
  });

  it('refuses what the server would, in the catalogue’s words, naming the expected file', () => {
    const declared = { version: '2.5.0', models: ['one_inch_v1'] as const };
    expect(uploadProblem({ name: 'flowbox-one_inch_v1-2.5.0.bin', size: 10 }, declared, 'en')).toBeNull();
    expect(uploadProblem({ name: 'flowbox-one_inch_v1-2.5.1.bin', size: 10 }, declared, 'en')).toBe(
      'Firmware naming not correct: the file must be named flowbox-one_inch_v1-2.5.0.bin',
    );
    expect(uploadProblem({ name: 'image.bin', size: 10 }, declared, 'fr')).toBe(
      'Nommage du firmware incorrect : le fichier doit s’appeler flowbox-one_inch_v1-2.5.0.bin',
    );
    expect(uploadProblem({ name: 'flowbox-one_inch_v1-2.5.0.bin', size: 0 }, declared, 'en')).toBe(
      'The firmware image is empty',
    );
    expect(
      uploadProblem({ name: 'flowbox-one_inch_v1-2.5.0.bin', size: FIRMWARE_MAX_BYTES + 1 }, declared, 'en'),
    ).toBe('The firmware image is too large: 16 MB at most');
  });

  it('releases to every customer or to those chosen, as the shared schema reads it', () => {
    const values = { ...emptyUploadValues, version: '2.5.0', models: ['one_inch_v1' as const] };
    expect(FirmwareImageCreateSchema.parse(toImageInput(values)).released_to).toBe('all');
    const some = toImageInput({ ...values, release: 'customers', customer_ids: [CUSTOMER_A, CUSTOMER_B] });
    expect(FirmwareImageCreateSchema.parse(some).released_to).toEqual([CUSTOMER_A, CUSTOMER_B]);
  });

  it('puts the form’s problems on its fields, and asks for a customer when releasing to some', () => {
    expect(uploadFieldProblems({ ...emptyUploadValues, version: '2.5' }, 'en')).toEqual([
      { field: 'version', message: 'Please enter a version as MAJOR.MINOR.PATCH, such as 2.5.0' },
      { field: 'models', message: 'This field is required' },
    ]);
    const declared = { ...emptyUploadValues, version: '2.5.0', models: ['one_inch_v1' as const] };
    expect(uploadFieldProblems({ ...declared, release: 'customers' }, 'fr')).toEqual([
      { field: 'customer_ids', message: 'Ce champ est requis' },
    ]);
    expect(uploadFieldProblems({ ...declared, release: 'customers', customer_ids: ['nope'] }, 'en')).toEqual([
      { field: 'customer_ids', message: 'This value is not valid' },
    ]);
    expect(uploadFieldProblems(declared, 'en')).toEqual([]);
  });

  it('sends the fields before the file, lists comma-separated', () => {
    const file = new File([new Uint8Array([1, 2, 3])], 'flowbox-one_inch_v1+two_inches_v1-2.5.0.bin');
    const body = imageFormData(
      {
        version: '2.5.0',
        models: ['one_inch_v1', 'two_inches_v1'],
        notes_en: 'Faster',
        notes_fr: '',
        released_to: [CUSTOMER_A, CUSTOMER_B],
      },
      file,
    );
    expect([...body.keys()]).toEqual(['version', 'models', 'notes_en', 'released_to', 'file']);
    expect(body.get('models')).toBe('one_inch_v1,two_inches_v1');
    expect(body.get('released_to')).toBe(`${CUSTOMER_A},${CUSTOMER_B}`);
    expect((body.get('file') as File).name).toBe(file.name);
  });
});
