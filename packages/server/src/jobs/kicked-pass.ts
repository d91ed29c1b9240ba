type Logger = { warn: (obj: object, msg: string) => void };

/**
 * A pass started at once when there is work for it (`kick`), beside the job that runs it on a
 * period: never two at once in an instance, and a kick during a pass runs one more right after it
 * (what the kick announced may have come too late for the running one). A failing pass is logged,
 * never thrown: the job's next beat tries again.
 */
export class KickedPass {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly log: Logger,
    private readonly failure: string,
  ) {}

  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.pass().catch((error: unknown) =>
          this.log.warn({ err: error instanceof Error ? error.message : String(error) }, this.failure),
        );
      } while (this.again);
    })().finally(() => (this.running = undefined));
  }

  /** Resolves when the passes started by `kick` are over (tests, and a stopping server). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
