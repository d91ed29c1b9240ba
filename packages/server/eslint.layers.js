import { readdirSync } from 'node:fs';

/*
 * Server layers (docs/architecture.md). Infrastructure folders are the floor every domain stands on
 * and are imported file by file; they never import a domain. A domain (every other folder under
 * packages/server/src) is entered through its `index.ts` (the data it lends: lookups, row types,
 * leaf functions) or its services (`*.service.ts`, its behaviour); its repos, routes and other
 * internals stay its own. An index never re-exports a service, so a domain's lookups do not drag in
 * its services' own imports and close an import cycle. app.ts, server.ts and main.ts, which put the
 * domains together, also take their routes, and jobs/registry.ts, the list of every job, takes each
 * domain's jobs (`*.job.ts`). Tests and test fixtures may reach inside (they set up
 * and observe state). What no rule file by file can see is held by src/architecture.test.ts: no
 * cycle between folders, no service, routes or repo write lent by an index, db/ below http/.
 */
const SERVER = 'packages/server/src';
const INFRASTRUCTURE = [
  'access',
  'db',
  'faults',
  'files',
  'health',
  'http',
  'jobs',
  'mail',
  'net',
  'test',
  'tracing',
];
const DOMAINS = readdirSync(new URL('src', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !INFRASTRUCTURE.includes(entry.name))
  .map((entry) => entry.name);
const TEST_FILES = [
  `${SERVER}/**/*.test.ts`,
  `${SERVER}/**/*.testing.ts`,
  `${SERVER}/**/testing.ts`,
  `${SERVER}/test/**`,
];

const throughIndex = (domain) => ({
  group: [`**/${domain}/*`, `**/${domain}/**/*`, `!**/${domain}/index.ts`, `!**/${domain}/*.service.ts`],
  message: `Import the ${domain} domain through its index.ts or its services (docs/architecture.md).`,
});
/** The seed writes the demo data table by table, as a migration would: it also takes the repos' writes. */
const seedReach = (domain) => ({
  group: [
    `**/${domain}/*`,
    `**/${domain}/**/*`,
    `!**/${domain}/index.ts`,
    `!**/${domain}/*.service.ts`,
    `!**/${domain}/*.repo.ts`,
  ],
  message: `The seed takes the ${domain} domain through its index.ts, services or repos (docs/architecture.md).`,
});
const never = (domain) => ({
  group: [`**/${domain}/*`, `**/${domain}/**/*`],
  message: `Infrastructure never imports a domain (${domain}); docs/architecture.md.`,
});
const wiredThroughIndex = (domain) => ({
  group: [
    `**/${domain}/*`,
    `**/${domain}/**/*`,
    `!**/${domain}/index.ts`,
    `!**/*.service.ts`,
    `!**/*.routes.ts`,
    `!**/*.job.ts`,
  ],
  message: `Wire the ${domain} domain through its index.ts, services, routes and jobs (docs/architecture.md).`,
});
/** The files that put the domains together. */
const COMPOSITION = ['app.ts', 'server.ts', 'main.ts', 'jobs/registry.ts'].map((file) => `${SERVER}/${file}`);
/** SQL is built in repos only (`*.repo.ts`): elsewhere in a domain, no query builder and no table. */
const SQL_ONLY_IN_REPOS = [
  { group: ['drizzle-orm', 'drizzle-orm/*'], message: 'Build SQL in a *.repo.ts (docs/architecture.md).' },
  { group: ['**/db/schema.ts'], message: 'Read tables in a *.repo.ts (docs/architecture.md).' },
];
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

/** ESLint config objects holding the server's layers. */
export const serverLayers = [
  ...DOMAINS.flatMap((domain) => {
    const others = DOMAINS.filter((other) => other !== domain).map(throughIndex);
    return [
      {
        files: [`${SERVER}/${domain}/**/*.ts`],
        // The seed writes the demo data table by table, as a migration would.
        ignores: [...TEST_FILES, `${SERVER}/seed/demo-data.ts`],
        rules: restrict([...others, ...SQL_ONLY_IN_REPOS]),
      },
      { files: [`${SERVER}/${domain}/**/*.repo.ts`], rules: restrict(others) },
    ];
  }),
  {
    files: [`${SERVER}/seed/demo-data.ts`],
    rules: restrict(DOMAINS.filter((domain) => domain !== 'seed').map(seedReach)),
  },
  { files: COMPOSITION, rules: restrict(DOMAINS.map(wiredThroughIndex)) },
  {
    files: [...INFRASTRUCTURE.map((folder) => `${SERVER}/${folder}/**/*.ts`), `${SERVER}/*.ts`],
    ignores: [...TEST_FILES, ...COMPOSITION],
    rules: restrict(DOMAINS.map(never)),
  },
];
