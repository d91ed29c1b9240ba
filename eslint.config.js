import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const AS_TEXT = 'Show text as text: React children, textContent, or leafletText() for Leaflet (issue 30).';
/** What parses a string as HTML in the web app: each is refused unless given an element. */
const NO_MARKUP = [
  { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: AS_TEXT },
  { selector: 'MemberExpression[property.name=/^(innerHTML|outerHTML|srcdoc)$/]', message: AS_TEXT },
  {
    selector:
      'CallExpression[callee.property.name=/^(insertAdjacentHTML|createContextualFragment|parseFromString)$/]',
    message: AS_TEXT,
  },
  {
    selector:
      'CallExpression[callee.property.name=/^(bindTooltip|bindPopup|setTooltipContent|setPopupContent|setContent|addAttribution|setPrefix)$/]:not([arguments.0.callee.name=/^leaflet(Text|Credit)$/])',
    message: AS_TEXT,
  },
  { selector: "CallExpression[callee.property.name='divIcon']", message: AS_TEXT },
  {
    selector: "CallExpression[callee.property.name='tileLayer'] Property[key.name='attribution']",
    message: AS_TEXT,
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/drizzle/meta/**', '.e2e-data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            'vitest.config.ts',
            'vitest.faults.config.ts',
            'vitest.fuzz.config.ts',
            'vitest.deploy.config.ts',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // A user's text is shown as text, never parsed as HTML (issue 30; docs/maps.md "Maps").
      'no-restricted-syntax': ['error', ...NO_MARKUP],
    },
  },
  ...(await import('./packages/web/eslint.boundaries.js')).webBoundaries,
  ...(await import('./packages/server/eslint.layers.js')).serverLayers,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  // Served as they are (docs/push.md "The web app"): the service worker, and the offline page's script.
  { files: ['packages/web/public/sw.js'], languageOptions: { globals: { ...globals.serviceworker } } },
  { files: ['packages/web/public/offline.js'], languageOptions: { globals: { ...globals.browser } } },
);
