import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';

const committed = join(import.meta.dirname, '../../../../docs/openapi.json');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * The contract in docs/openapi.json is generated from the zod schemas; this fails when the code
 * changed the API without the document (regenerate with `npm run openapi`).
 */
it('matches the committed OpenAPI document', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/v1/docs/json' });
  const generated = `${JSON.stringify(res.json(), null, 2)}\n`;
  if (process.env.UPDATE_OPENAPI === '1') writeFileSync(committed, generated);
  expect(generated).toBe(readFileSync(committed, 'utf8'));
});
