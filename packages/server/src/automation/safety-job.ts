import type { AutomationService } from './automation.service.ts';

/** How often each instance supervises unconfirmed safety closes. */
export const SAFETY_PASS_MS = 1000;

/** Runs the supervision passes (one at a time) until the returned stop is called. */
export function startSafetyCloseJob(
  automation: AutomationService,
  log: { error: (obj: object, msg: string) => void },
  ms = SAFETY_PASS_MS,
): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const pass = () => {
    running ??= automation
      .superviseSafetyCloses()
      .catch((error: unknown) => log.error({ err: error }, 'safety close supervision failed'))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(pass, ms);
  pass();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
