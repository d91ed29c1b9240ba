import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config.ts';
import { PortInUseError } from './mqtt/index.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed/index.ts';
import { PortBusyError, startServer } from './server.ts';

/** `npm start`: one process serving the API, the web app and the device broker. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let server;
  try {
    server = await startServer(config);
  } catch (error) {
    if (error instanceof PortInUseError || error instanceof PortBusyError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const lines = [
    '',
    `Flowbox Manager is running: ${server.url}`,
    `  API docs:  ${server.url}/v1/docs`,
    `  Database:  ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}`,
    `  Devices:   ${server.messaging.describe}`,
  ];
  if (config.demo) {
    lines.push(
      config.demoFleet
        ? `  Demo fleet: ${server.demoFleet.running} simulated flowboxes running (DEMO_FLEET=false to stop them)`
        : '  Demo fleet: off (DEMO_FLEET=false)',
    );
    lines.push(`  Log in with any demo account, password "${DEMO_PASSWORD}":`);
    for (const a of DEMO_ACCOUNTS)
      lines.push(
        `    ${a.email.padEnd(30)} (${['', 'provider manager', 'customer manager', 'site manager'][a.role]})`,
      );
  }
  if (config.admin) lines.push(`  Provider manager: ${config.admin.email} (FLOWBOX_ADMIN_PASSWORD)`);
  lines.push('  Stop with Ctrl-C.', '');
  console.log(lines.join('\n'));

  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) console.error(err);
    await server.close();
    console.log('Flowbox Manager stopped.');
  });
}

await main();
