import { listenUrl, type Config } from './config.ts';
type Started = { messaging: { describe: string }; demoFleet: { running: number } };
/** The demo's accounts (seed/), handed in: this module imports no domain. */
type DemoAccounts = { accounts: readonly { email: string; role: number }[]; password: string };

/**
 * What `npm start` prints once it runs. The address to open is PUBLIC_URL, the one every email
 * links to (issue 30: the console said 127.0.0.1 and emails localhost, two origins); where the
 * server listens is added when it differs (behind a proxy).
 */
export function startupLines(config: Config, server: Started, demo: DemoAccounts): string[] {
  const lines = ['', `Flowbox Manager is running: ${config.publicUrl}`];
  const listening = listenUrl(config.host, config.port);
  if (listening !== config.publicUrl) lines.push(`  Listening on: ${listening}`);
  lines.push(
    `  API docs:  ${config.publicUrl}/v1/docs`,
    `  Database:  ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}`,
    `  Devices:   ${server.messaging.describe}`,
  );
  if (config.demo) {
    lines.push(
      config.demoFleet
        ? `  Demo fleet: ${server.demoFleet.running} simulated flowboxes running (DEMO_FLEET=false to stop them)`
        : '  Demo fleet: off (DEMO_FLEET=false)',
    );
    lines.push(`  Log in with any demo account, password "${demo.password}":`);
    for (const a of demo.accounts)
      lines.push(
        `    ${a.email.padEnd(30)} (${['', 'provider manager', 'customer manager', 'site manager'][a.role]})`,
      );
  }
  if (config.admin) lines.push(`  Provider manager: ${config.admin.email} (FLOWBOX_ADMIN_PASSWORD)`);
  lines.push('  Stop with Ctrl-C.', '');
  return lines;
}
