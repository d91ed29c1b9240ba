/**
 * What this instance needs to do its work, as its parts last saw it (docs/reliability.md). Each part
 * reports its own state: the database (a query failing with a lost connection), the device broker
 * (connected AND delivering: a connection whose subscriptions a restarted broker forgot delivers
 * nothing). `/v1/health` answers 503 while any part is down, so a load balancer and an operator see
 * an instance that cannot do its job instead of "ok".
 */
export class Readiness {
  private readonly down = new Map<string, string>();

  /** Records a part as working (`reason` omitted) or not (with the reason, for logs and the answer). */
  set(part: string, reason?: string): void {
    if (reason === undefined) this.down.delete(part);
    else this.down.set(part, reason);
  }

  get ready(): boolean {
    return this.down.size === 0;
  }

  /** The parts that are down, with their reasons. */
  problems(): Record<string, string> {
    return Object.fromEntries(this.down);
  }
}
