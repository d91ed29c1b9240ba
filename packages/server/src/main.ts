import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config.ts';
import { PortInUseError } from './mqtt/index.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed/index.ts';
import { PortBusyError, startServer } from './server.ts';
import { startupLines } from './startup.ts';

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
  console.log(startupLines(config, server, { accounts: DEMO_ACCOUNTS, password: DEMO_PASSWORD }).join('\n'));

  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) console.error(err);
    await server.close();
    console.log('Flowbox Manager stopped.');
  });
}

await main();
